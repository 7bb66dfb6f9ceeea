function dydt = brusselator_rhs_vec(y)
% BRUSSELATOR_RHS_VEC  Right-hand side of the 1-D Brusselator, vectorised.
%   Same function as brusselator_rhs (y = [u1 v1 ... uN vN], a = 1/50,
%   boundary u = 1, v = 3), written with index vectors and padding.
  N = numel(y) / 2;
  alpha = 1/50;
  diffusion = alpha * (N + 1)^2;
  u = y(1:2:end);
  v = y(2:2:end);
  u = u(:);
  v = v(:);
  uPadded = [1; u; 1];
  vPadded = [3; v; 3];
  reaction = u.^2 .* v;
  dudt = 1 + reaction - 4*u + diffusion * (uPadded(1:end-2) - 2*u + uPadded(3:end));
  dvdt = 3*u - reaction + diffusion * (vPadded(1:end-2) - 2*v + vPadded(3:end));
  dydt = zeros(size(y));
  dydt(1:2:end) = dudt;
  dydt(2:2:end) = dvdt;
end
