function dydt = burgers_mm_vec(y)
% BURGERS_MM_VEC  Burgers' equation on a moving mesh: method-of-lines rhs, vectorised.
%   dydt = burgers_mm_vec(y) for u_t = e u_xx - (u^2/2)_x on [0,1], e = 1e-4,
%   u(0) = u(1) = 0. Unknowns y = [u; x]: values u_i at the N = numel(y)/2
%   interior nodes and the node positions x_i themselves (x_0 = 0, x_{N+1} = 1).
%
%   Mesh equation (relaxation to equal arclength of the curve (x, u(x))):
%     x_i' = (N+1)^2 / tau * (L_i - L_{i-1}),  L_k = sqrt(h_k^2 + (u_{k+1} - u_k)^2),
%   h_k = x_{k+1} - x_k, tau = 1e-2: a node moves towards the longer of its
%   two segments. The same as tau x_t = (M x_xi)_xi with M = sqrt(1 + u_x^2).
%   Physics along a moving node (du_i/dt = u_t + u_x x_i'):
%     u_i' = e uxx_i - fluxx_i + ux_i x_i',  with hL = h_{i-1}, hR = h_i and
%     ux_i = (u_{i+1} - u_{i-1}) / (hL + hR)
%     uxx_i = 2 ((u_{i+1} - u_i)/hR - (u_i - u_{i-1})/hL) / (hL + hR)
%     fluxx_i = (u_{i+1}^2 - u_{i-1}^2) / (2 (hL + hR))
%   The result is an explicit ODE y' = F(y) (no mass matrix). burgers_mm_loop
%   computes the same with scalar loops; burgers_init(N) gives y0.
  epsilon = 1e-4;
  tau = 1e-2;
  N = numel(y) / 2;
  u = y(1:N);
  x = y(N+1:2*N);
  uAll = [0; u(:); 0];
  xAll = [0; x(:); 1];
  h = diff(xAll);
  segmentLength = sqrt(h.^2 + diff(uAll).^2);
  dxdt = (N + 1)^2 / tau * (segmentLength(2:end) - segmentLength(1:end-1));
  hLeft = h(1:end-1);
  hRight = h(2:end);
  uLeft = uAll(1:end-2);
  uRight = uAll(3:end);
  uCentre = u(:);
  ux = (uRight - uLeft) ./ (hLeft + hRight);
  uxx = 2 * ((uRight - uCentre) ./ hRight - (uCentre - uLeft) ./ hLeft) ./ (hLeft + hRight);
  fluxx = (uRight.^2 - uLeft.^2) ./ (2 * (hLeft + hRight));
  dudt = epsilon * uxx - fluxx + ux .* dxdt;
  dydt = zeros(size(y));
  dydt(1:N) = dudt;
  dydt(N+1:2*N) = dxdt;
end
