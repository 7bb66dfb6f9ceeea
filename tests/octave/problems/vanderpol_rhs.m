function dydt = vanderpol_rhs(y, mu)
% VANDERPOL_RHS  Van der Pol oscillator as a first-order system.
%   dydt = vanderpol_rhs(y, mu): y1' = y2, y2' = mu (1 - y1^2) y2 - y1.
%   mu defaults to 1 (use 1000 for the classic stiff case). Start: [2; 0].
  if nargin < 2
    mu = 1;
  end
  dydt = [y(2); mu * (1 - y(1)^2) * y(2) - y(1)];
end
