function [J, f0] = fd_jacobian(fun, x, typicalSize)
% FD_JACOBIAN  Jacobian of fun at x by central differences (full matrix).
%   [J, f0] = fd_jacobian(fun, x) returns J(i,j) ~ d f_i / d x_j, f = fun(x)(:),
%   and f0 = fun(x). The step for x_j is eps^(1/3) * max(|x_j|, 1): the cube
%   root balances truncation (step^2) against rounding (eps/step) error.
%   fd_jacobian(fun, x, typicalSize) uses eps^(1/3) * typicalSize(j) instead
%   (scalar or one per component): for unknowns whose influence varies on a
%   scale much smaller than their magnitude, such as mesh node positions.
  n = numel(x);
  if nargin < 3
    stepScale = max(abs(x(:)), 1);
  else
    stepScale = typicalSize(:) .* ones(n, 1);
  end
  f0 = fun(x);
  J = zeros(numel(f0), n);
  for j = 1:n
    step = eps^(1/3) * stepScale(j);
    xPlus = x;
    xMinus = x;
    xPlus(j) = x(j) + step;
    xMinus(j) = x(j) - step;
    fPlus = fun(xPlus);
    fMinus = fun(xMinus);
    % Divide by the step actually represented in floating point.
    J(:, j) = (fPlus(:) - fMinus(:)) / (xPlus(j) - xMinus(j));
  end
end
