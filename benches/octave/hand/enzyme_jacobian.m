function J = enzyme_jacobian(x)
% ENZYME_JACOBIAN  Hand-coded 11 x 4 Jacobian of enzyme_residual:
%   f_i = y_i - x1 p_i / q_i, p_i = u_i^2 + u_i x2, q_i = u_i^2 + u_i x3 + x4.
  u = [4; 2; 1; 0.5; 0.25; 0.167; 0.125; 0.1; 0.0833; 0.0714; 0.0625];
  p = u.^2 + u * x(2);
  q = u.^2 + u * x(3) + x(4);
  J = [-p ./ q, -x(1) * u ./ q, x(1) * p .* u ./ q.^2, x(1) * p ./ q.^2];
end
