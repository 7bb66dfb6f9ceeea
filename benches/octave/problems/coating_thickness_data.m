function [eta1, eta2, y1, y2] = coating_thickness_data()
% COATING_THICKNESS_DATA  63 synthetic calibration points for coating_thickness_residual.
%   Coordinates spread over the range of the MINPACK-2 data (eta1 ~ 0.7..1.3, eta2 ~ 4..6);
%   measurements from a bilinear model plus a small deterministic perturbation, so the
%   fit is not exact. Deterministic: every run times the same problem.
  k = (1:63).';
  eta1 = 1 + 0.3 * sin(2.1 * k);
  eta2 = 5 + cos(1.7 * k);
  perturbation = 0.01 * sin(3 * k);
  y1 = 0.5 + 0.3 * eta1 + 0.02 * eta2 + 0.05 * eta1 .* eta2 + perturbation;
  y2 = 0.7 + 0.1 * eta1 + 0.04 * eta2 + 0.02 * eta1 .* eta2 - perturbation;
end
