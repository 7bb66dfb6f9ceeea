function z = trapz(x, y, dim)
% TRAPZ  Trapezoidal rule, written for msad (differentiated like user code, in x and in y).
%   trapz(y): unit spacing; trapz(x, y): points x (a vector of size(y, dim) or an array the size of
%   y); trapz(y, dim), trapz(x, y, dim): along dim, by default the first non-singleton dimension.
  if nargin < 3
    dim = [];
  end
  if nargin == 1 || (nargin == 2 && isscalar(y))
    % trapz(y) or, as in Octave, trapz(y, dim).
    if nargin == 2
      dim = y;
    end
    y = x;
    x = [];
  end
  if isempty(dim)
    dim = find(size(y) ~= 1, 1);
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
    error('Octave:nonconformant-args', 'trapz: length of X and length of Y along DIM must match');
  end
  sums = sum(widths .* (columns(1:n - 1, :) + columns(2:n, :)), 1) / 2;
  rest = sz(order(2:end));
  z = ipermute(reshape(sums, [1, rest]), order);
end
