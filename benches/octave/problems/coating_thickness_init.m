function x0 = coating_thickness_init()
% COATING_THICKNESS_INIT  Starting point of coating_thickness_residual: rough model
%   parameters, zero coordinate errors.
  x0 = [0.5; 0.3; 0; 0; 0.7; 0.1; 0; 0; zeros(126, 1)];
end
