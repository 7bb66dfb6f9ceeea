function f = dixmaanb(x)
% DIXMAANB  CUTEst's DIXMAANB from its definition (n = 3m, alpha = 1, beta = gamma = delta = 0.0625,
% all exponents 0): 1 + sum x_i^2 + beta sum x_i^2 (x_{i+1} + x_{i+1}^2)^2 + gamma sum_{i<=2m}
% x_i^2 x_{i+m}^4 + delta sum_{i<=m} x_i x_{i+2m} (couplings at distances 1, m and 2m).
  n = numel(x);
  m = n / 3;
  y = x(2:n);
  f = 1 + sum(x.^2) + 0.0625 * sum(x(1:n-1).^2 .* (y + y.^2).^2) ...
      + 0.0625 * sum(x(1:2*m).^2 .* x(m+1:n).^4) + 0.0625 * sum(x(1:m) .* x(2*m+1:n));
end
