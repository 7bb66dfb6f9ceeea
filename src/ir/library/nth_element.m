function y = nth_element(x, n, dim)
% NTH_ELEMENT  The n-th smallest elements along dim (default: the first non-singleton dimension),
%   written for msad: a selection from sort, so its derivative is that of sort (NaNs sort last).
  sz = size(x);
  if nargin < 3
    dim = find(sz ~= 1, 1);
    if isempty(dim)
      dim = 1;
    end
  end
  sz(end + 1:dim) = 1;
  len = sz(dim);
  if any(n(:) < 1 | n(:) > len | n(:) ~= fix(n(:)))
    error('nth_element: invalid element index');
  end
  steps = diff(n(:));
  if ~isempty(steps) && (abs(steps(1)) ~= 1 || any(steps ~= steps(1)))
    error('nth_element: n must be a scalar or a contiguous range');
  end
  order = [dim, 1:dim - 1, dim + 1:numel(sz)];
  columns = sort(reshape(permute(x, order), len, []), 1);
  rest = sz(order(2:end));
  y = ipermute(reshape(columns(n(:), :), [numel(n), rest]), order);
end
