function dydt = brusselator_rhs(y)
% BRUSSELATOR_RHS  Right-hand side of the 1-D Brusselator, scalar-loop version.
%   dydt = brusselator_rhs(y) with y = [u1 v1 u2 v2 ... uN vN] (N = numel(y)/2):
%     u_i' = 1 + u_i^2 v_i - 4 u_i + a (N+1)^2 (u_{i-1} - 2 u_i + u_{i+1})
%     v_i' = 3 u_i - u_i^2 v_i     + a (N+1)^2 (v_{i-1} - 2 v_i + v_{i+1})
%   with a = 1/50 and boundary values u = 1, v = 3. See brusselator_rhs_vec.
  N = numel(y) / 2;
  alpha = 1/50;
  diffusion = alpha * (N + 1)^2;
  uBoundary = 1;
  vBoundary = 3;
  dydt = zeros(size(y));
  for i = 1:N
    u = y(2*i - 1);
    v = y(2*i);
    if i == 1
      uLeft = uBoundary;
      vLeft = vBoundary;
    else
      uLeft = y(2*i - 3);
      vLeft = y(2*i - 2);
    end
    if i == N
      uRight = uBoundary;
      vRight = vBoundary;
    else
      uRight = y(2*i + 1);
      vRight = y(2*i + 2);
    end
    reaction = u^2 * v;
    dydt(2*i - 1) = 1 + reaction - 4*u + diffusion * (uLeft - 2*u + uRight);
    dydt(2*i) = 3*u - reaction + diffusion * (vLeft - 2*v + vRight);
  end
end
