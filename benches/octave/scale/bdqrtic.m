function f = bdqrtic(x)
% BDQRTIC  CUTEst's BDQRTIC from its definition: sum_{i<=n-4} (3 - 4 x_i)^2 +
% (x_i^2 + 2 x_{i+1}^2 + 3 x_{i+2}^2 + 4 x_{i+3}^2 + 5 x_n^2)^2 (banded plus a dense last row).
  i = 1:numel(x) - 4;
  q = x.^2;
  f = sum((3 - 4 * x(i)).^2 + (q(i) + 2 * q(i + 1) + 3 * q(i + 2) + 4 * q(i + 3) + 5 * q(end)).^2);
end
