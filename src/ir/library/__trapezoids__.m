function [columns, widths, order, sz] = __trapezoids__(name, x, y, dim)
% __TRAPEZOIDS__  For msad's trapz and cumtrapz, called with their arguments (y), (x, y), (y, dim) or
%   (x, y, dim): y's slices along dim as columns, the widths of the intervals (unit without x), the
%   permutation bringing dim first and y's size.
  if nargin < 4
    dim = [];
  end
  if nargin == 2 || (nargin == 3 && isscalar(y) && ~isscalar(x))
    % (y) or, as in Octave, (y, dim).
    if nargin == 3
      dim = y;
    end
    y = x;
    x = [];
  end
  if isempty(dim)
    dim = find(size(y) > 1, 1);
    if isempty(dim)
      dim = 1;
    end
  end
  sz = size(y);
  sz(end + 1:dim) = 1;
  n = sz(dim);
  order = [dim, 1:dim - 1, dim + 1:numel(sz)];
  columns = reshape(permute(y, order), n, []);
  if isempty(x)
    widths = ones(n - 1, 1);
  elseif isvector(x) && numel(x) == n
    widths = diff(x(:));
  elseif isequal(size(x), size(y))
    widths = diff(reshape(permute(x, order), n, []), 1, 1);
  else
    error('Octave:nonconformant-args', '%s: length of X and length of Y along DIM must match', name);
  end
end
