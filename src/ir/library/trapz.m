function z = trapz(varargin)
% TRAPZ  Trapezoidal rule, written for msad (differentiated like user code, in x and in y).
%   trapz(y): unit spacing; trapz(x, y): points x (a vector of size(y, dim) or an array the size of
%   y); trapz(y, dim), trapz(x, y, dim): along dim, by default the first non-singleton dimension.
  if nargin == 1 && isequal(size(varargin{1}), [0, 0])
    z = 0;  % Octave's trapz([])
    return;
  end
  [columns, widths, order, sz] = __trapezoids__('trapz', varargin{:});
  n = size(columns, 1);
  sums = sum(widths .* (columns(1:n - 1, :) + columns(2:n, :)), 1) / 2;
  rest = sz(order(2:end));
  z = ipermute(reshape(sums, [1, rest]), order);
end
