function dydt = robertson_rhs(y)
% ROBERTSON_RHS  Robertson's stiff chemical kinetics (3 species).
%   y1' = -0.04 y1 + 1e4 y2 y3
%   y2' =  0.04 y1 - 1e4 y2 y3 - 3e7 y2^2
%   y3' =  3e7 y2^2                     Standard start: y = [1; 0; 0].
  dydt = zeros(3, 1);
  slow = 0.04 * y(1);
  medium = 1e4 * y(2) * y(3);
  fast = 3e7 * y(2)^2;
  dydt(1) = -slow + medium;
  dydt(2) = slow - medium - fast;
  dydt(3) = fast;
end
