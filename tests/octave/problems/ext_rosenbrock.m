function [f, F] = ext_rosenbrock(x)
% EXT_ROSENBROCK  Extended Rosenbrock function (n even).
%   [f, F] = ext_rosenbrock(x): residuals F_{2i-1} = 10 (x_{2i} - x_{2i-1}^2),
%   F_{2i} = 1 - x_{2i-1}, and the objective f = sum(F.^2). Standard start:
%   x = [-1.2 1 -1.2 1 ...]; minimum 0 at x = ones.
  n = numel(x);
  F = zeros(size(x));
  for i = 1:n/2
    F(2*i - 1) = 10 * (x(2*i) - x(2*i - 1)^2);
    F(2*i) = 1 - x(2*i - 1);
  end
  f = sum(F.^2);
end
