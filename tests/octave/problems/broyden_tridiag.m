function F = broyden_tridiag(x)
% BROYDEN_TRIDIAG  Broyden tridiagonal function, F: R^n -> R^n.
%   F_i = (3 - 2 x_i) x_i - x_{i-1} - 2 x_{i+1} + 1 with x_0 = x_{n+1} = 0.
%   Standard start: x_i = -1.
  x = x(:);
  xPadded = [0; x; 0];
  F = (3 - 2*x) .* x - xPadded(1:end-2) - 2*xPadded(3:end) + 1;
end
