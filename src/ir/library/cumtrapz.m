function z = cumtrapz(varargin)
% CUMTRAPZ  Cumulative trapezoidal rule, written for msad (differentiated like user code, in x and
%   in y): cumtrapz(y), cumtrapz(x, y), cumtrapz(..., dim), as trapz.
  [columns, widths, order, sz] = __trapezoids__('cumtrapz', varargin{:});
  n = size(columns, 1);
  if n == 0
    % As Octave: one (zero) row along dim.
    sz(order(1)) = 1;
    z = zeros(sz);
    return;
  end
  sums = [zeros(1, size(columns, 2)); cumsum(widths .* (columns(1:n - 1, :) + columns(2:n, :)), 1) / 2];
  z = ipermute(reshape(sums, sz(order)), order);
end
