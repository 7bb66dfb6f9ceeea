function [f, F] = ext_rosenbrock_vec(x)
% EXT_ROSENBROCK_VEC  Extended Rosenbrock function, vectorised (n even).
%   Same function as ext_rosenbrock: residuals F_{2i-1} = 10 (x_{2i} - x_{2i-1}^2),
%   F_{2i} = 1 - x_{2i-1} and the objective f = sum(F.^2), written without loops.
  F = zeros(size(x));
  F(1:2:end) = 10 * (x(2:2:end) - x(1:2:end).^2);
  F(2:2:end) = 1 - x(1:2:end);
  f = sum(F.^2);
end
