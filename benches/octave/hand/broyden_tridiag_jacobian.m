function J = broyden_tridiag_jacobian(x)
% BROYDEN_TRIDIAG_JACOBIAN  Hand-coded sparse Jacobian of broyden_tridiag:
%   dF_i/dx_i = 3 - 4 x_i, dF_i/dx_{i-1} = -1, dF_i/dx_{i+1} = -2.
  n = numel(x);
  e = ones(n, 1);
  J = spdiags([-e, 3 - 4*x(:), -2*e], -1:1, n, n);
end
