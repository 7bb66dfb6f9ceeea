function F = reactor_residual(x)
%REACTOR_RESIDUAL  Steady state of a cooled stirred-tank reactor with the reactions A -> B
%   (first order) and B -> C (second order), in dimensionless form.
%   x = [cA; cB; cC; T]: concentrations and temperature. F = 0 at a steady state.
  c = x(1:3);
  T = x(4);
  k = [2.0; 0.5] .* exp([10; 14] .* (1 - 1 ./ T));   % Arrhenius rate constants
  r = k .* c(1:2) .^ [1; 2];                         % reaction rates
  F = zeros(4, 1);
  F(1:3) = [1; 0; 0] - c + [-r(1); r(1) - r(2); r(2)];
  % Heat balance: reaction heat against a coolant whose flow varies with temperature.
  cooling = 0.4 * (T - 0.9) * (1 + 0.5 * sin(pi * T / 2));
  F(4) = 1 - T + 0.2 * r(1) + 0.3 * r(2) - cooling;
end
