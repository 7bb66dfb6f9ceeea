function dydt = brusselator_pde(y, N)
% BRUSSELATOR_PDE  The 1-D Brusselator on N interior points, y = [u; v]:
%   u' = 1 + u^2 v - 4u + alpha u_xx, v' = 3u - u^2 v + alpha v_xx, u = 1, v = 3 at both ends,
%   alpha = 1/50, central differences on [0, 1]. Used by msad_stiff_pde_demo.
  alpha = 1 / 50;
  c = alpha * (N + 1)^2;
  u = y(1:N);
  v = y(N + 1:end);
  uxx = [1; u(1:end-1)] - 2 * u + [u(2:end); 1];
  vxx = [3; v(1:end-1)] - 2 * v + [v(2:end); 3];
  dydt = [1 + u.^2 .* v - 4 * u + c * uxx; 3 * u - u.^2 .* v + c * vxx];
end
