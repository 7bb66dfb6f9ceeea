function dudt = rd2d_rhs(u)
% RD2D_RHS  2-D reaction-diffusion (Fisher-KPP) on an m x m interior grid.
%   dudt = rd2d_rhs(u) for u_t = D (u_xx + u_yy) + u (1 - u) on the unit
%   square, D = 0.1, u = 0 on the boundary, u(:) column-major over the grid
%   (m = sqrt(numel(u)), h = 1/(m+1)). The 5-point Laplacian is assembled as
%   kron(I, T) + kron(T, I) from the 1-D second difference T (spdiags).
  m = round(sqrt(numel(u)));
  D = 0.1;
  h = 1 / (m + 1);
  e = ones(m, 1);
  secondDifference = spdiags([e, -2*e, e], -1:1, m, m) / h^2;
  identity = speye(m);
  laplacian = kron(identity, secondDifference) + kron(secondDifference, identity);
  dudt = D * (laplacian * u(:)) + u(:) .* (1 - u(:));
  dudt = reshape(dudt, size(u));
end
