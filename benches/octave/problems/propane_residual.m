function f = propane_residual(x)
% PROPANE_RESIDUAL  MINPACK-2 propane combustion (chemical equilibrium): 11 residuals, 11 unknowns.
%   f = propane_residual(x): x(1:10) are the moles of the ten products of burning propane
%   in air, x(11) their total. Element balances (f1..f4) with air-fuel ratio R = 10, the
%   equilibrium laws of six reactions (f5..f10, constants K5..K10 at pressure p = 40), and
%   the definition of the total (f11). The square roots need x > 0: start from
%   propane_init().
  R = 10;
  p = 40;
  K = [1.930e-1, 2.597e-3, 3.448e-3, 1.799e-5, 2.155e-4, 3.846e-5];
  pressureRatio = p / x(11);
  f = zeros(11, 1);
  f(1) = x(1) + x(4) - 3;
  f(2) = 2*x(1) + x(2) + x(4) + x(7) + x(8) + x(9) + 2*x(10) - R;
  f(3) = 2*x(2) + 2*x(5) + x(6) + x(7) - 8;
  f(4) = 2*x(3) + x(9) - 4*R;
  f(5) = K(1)*x(2)*x(4) - x(1)*x(5);
  f(6) = K(2)*sqrt(x(2)*x(4)) - sqrt(x(1))*x(6)*sqrt(pressureRatio);
  f(7) = K(3)*sqrt(x(1)*x(2)) - sqrt(x(4))*x(7)*sqrt(pressureRatio);
  f(8) = K(4)*x(1) - x(4)*x(8)*pressureRatio;
  f(9) = K(5)*x(1)*sqrt(x(3)) - x(4)*x(9)*sqrt(pressureRatio);
  f(10) = K(6)*x(1)^2 - x(4)^2*x(10)*pressureRatio;
  f(11) = x(11) - sum(x(1:10));
end
