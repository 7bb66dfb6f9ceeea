function f = gl2_energy(x)
% GL2_ENERGY  A 2-D Ginzburg-Landau-style energy on an N x N grid (numel(x) = N^2,
%   zero boundary values, mesh width h = 1/(N+1)):
%   f = h^2 * sum(0.5 |grad u|^2 + 0.25 (u^2 - 1)^2), grad by forward differences.
%   Its Hessian is the 5-point Laplacian plus a diagonal: 5 nonzeros in a row.
  N = round(sqrt(numel(x)));
  h = 1 / (N + 1);
  u = reshape(x, N, N);
  U = zeros(N + 2, N + 2);
  U(2:N+1, 2:N+1) = u;
  dx = (U(2:end, 2:N+1) - U(1:end-1, 2:N+1)) / h;
  dy = (U(2:N+1, 2:end) - U(2:N+1, 1:end-1)) / h;
  f = h^2 * (0.5 * (sum(dx(:).^2) + sum(dy(:).^2)) + 0.25 * sum((u(:).^2 - 1).^2));
end
