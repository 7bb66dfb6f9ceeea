function F = bordered_banded_residual(x, k)
% BORDERED_BANDED_RESIDUAL  Tridiagonal residuals coupled to the last k unknowns, plus k rows that
% read every unknown: a bordered-banded Jacobian (issue #26's bidirectional colouring family).
  n = numel(x) - k;
  y = x(1:n);
  border = x(n+1:end);
  F = [y.^2 - [y(2:end); 0] - [0; y(1:end-1)] + sum(border); (1:k)' .* sum(x.^2) + border];
end
