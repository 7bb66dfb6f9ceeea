function f = heart_dipole_residual(x)
% HEART_DIPOLE_RESIDUAL  MINPACK-2 human heart dipole problem: 8 residuals, 8 unknowns.
%   f = heart_dipole_residual(x), x = [a b c d t u v w]: the moments of two dipoles
%   (strengths a, c and b, d at positions given by t, v and u, w) must match eight
%   measured moments sigma:
%     f1 = a + b - sigma_mx
%     f2 = c + d - sigma_my
%     f3 = t a + u b - v c - w d - sigma_A
%     f4 = v a + w b + t c + u d - sigma_B
%     f5 = a (t^2 - v^2) - 2 c t v + b (u^2 - w^2) - 2 d u w - sigma_C
%     f6 = c (t^2 - v^2) + 2 a t v + d (u^2 - w^2) + 2 b u w - sigma_D
%     f7 = a t (t^2 - 3 v^2) + c v (v^2 - 3 t^2) + b u (u^2 - 3 w^2) + d w (w^2 - 3 u^2) - sigma_E
%     f8 = c t (t^2 - 3 v^2) - a v (v^2 - 3 t^2) + d u (u^2 - 3 w^2) - b w (w^2 - 3 u^2) - sigma_F
%   Written as scalar expressions, as in the original code: small, call-overhead bound.
%   Start: heart_dipole_init().
  sigma = [0.485; -0.0019; -0.0581; 0.015; 0.105; 0.0406; 0.167; -0.399];
  a = x(1); b = x(2); c = x(3); d = x(4);
  t = x(5); u = x(6); v = x(7); w = x(8);
  f = zeros(8, 1);
  f(1) = a + b - sigma(1);
  f(2) = c + d - sigma(2);
  f(3) = t*a + u*b - v*c - w*d - sigma(3);
  f(4) = v*a + w*b + t*c + u*d - sigma(4);
  f(5) = a*(t^2 - v^2) - 2*c*t*v + b*(u^2 - w^2) - 2*d*u*w - sigma(5);
  f(6) = c*(t^2 - v^2) + 2*a*t*v + d*(u^2 - w^2) + 2*b*u*w - sigma(6);
  f(7) = a*t*(t^2 - 3*v^2) + c*v*(v^2 - 3*t^2) + b*u*(u^2 - 3*w^2) + d*w*(w^2 - 3*u^2) - sigma(7);
  f(8) = c*t*(t^2 - 3*v^2) - a*v*(v^2 - 3*t^2) + d*u*(u^2 - 3*w^2) - b*w*(w^2 - 3*u^2) - sigma(8);
end
