function f = coating_thickness_residual(x)
% COATING_THICKNESS_RESIDUAL  MINPACK-2 coating thickness standardization: 252 residuals, 134 unknowns.
%   Two bilinear calibration models, parameters x(1:4) and x(5:8), are fitted to
%   measurements y at 63 points whose coordinates eta1, eta2 carry errors x(9:71) and
%   x(72:134) (errors in variables):
%     f(i)       = x1 + x2 s_i + x3 t_i + x4 s_i t_i - y1_i,  s_i = eta1_i + x(8+i)
%     f(63+i)    = x5 + x6 s_i + x7 t_i + x8 s_i t_i - y2_i,  t_i = eta2_i + x(71+i)
%     f(126+i)   = weight * x(8+i),   f(189+i) = weight * x(71+i)   (penalise the errors)
%   The data come from coating_thickness_data (synthetic, same sizes and structure as
%   MINPACK-2's measured data). Vectorised. Start: coating_thickness_init().
  [eta1, eta2, y1, y2] = coating_thickness_data();
  weight = 4.08;
  points = numel(eta1);
  s = eta1 + x(9:8+points);
  t = eta2 + x(9+points:8+2*points);
  f = [x(1) + x(2)*s + x(3)*t + x(4)*s.*t - y1;
       x(5) + x(6)*s + x(7)*t + x(8)*s.*t - y2;
       weight * x(9:8+2*points)];
end
