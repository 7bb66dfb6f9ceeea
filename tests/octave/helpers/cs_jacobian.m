function [J, f0] = cs_jacobian(fun, x)
% CS_JACOBIAN  Jacobian of fun at real x by the complex step (full matrix).
%   [J, f0] = cs_jacobian(fun, x) returns J(i,j) = imag(f_i(x + i*h*e_j)) / h.
%   There is no subtractive cancellation, so J is accurate to rounding for
%   any tiny h. Only valid when fun is complex-safe: analytic operations, no
%   abs/max/real/conj, and transposes written .' rather than '.
  step = 1e-30;
  f0 = fun(x);
  n = numel(x);
  J = zeros(numel(f0), n);
  for j = 1:n
    xStepped = complex(x);
    xStepped(j) = x(j) + 1i * step;
    fStepped = fun(xStepped);
    J(:, j) = imag(fStepped(:)) / step;
  end
end
