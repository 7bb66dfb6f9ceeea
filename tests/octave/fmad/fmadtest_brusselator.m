function f = fmadtest_brusselator(y)
% Brusselator reaction-diffusion right-hand side, N points, unknowns
% ordered u1 v1 u2 v2 ...; boundary values u = 1, v = 3, a = 1/50:
%   u_i' = 1 + u_i^2 v_i - 4 u_i + a (N+1)^2 (u_{i-1} - 2 u_i + u_{i+1})
%   v_i' = 3 u_i - u_i^2 v_i     + a (N+1)^2 (v_{i-1} - 2 v_i + v_{i+1})
  n = numel(y) / 2;
  c = (n + 1)^2 / 50;
  u = y(1:2:end);
  v = y(2:2:end);
  u2v = u .^ 2 .* v;
  du = 1 + u2v - 4 * u + c * ([1; u(1:end-1)] - 2 * u + [u(2:end); 1]);
  dv = 3 * u - u2v + c * ([3; v(1:end-1)] - 2 * v + [v(2:end); 3]);
  f = reshape([du, dv].', [], 1);
end
