function x0 = propane_init()
% PROPANE_INIT  A positive starting point of propane_residual (x(11) = sum of the rest).
  x0 = [2; 5; 40; 1; 0.5; 0.5; 0.5; 0.5; 0.5; 0.5; 0];
  x0(11) = sum(x0(1:10));
end
