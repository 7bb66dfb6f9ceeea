function z = accumarray(subs, vals, sz, func, fillval, sparse_result)
%ACCUMARRAY  accumarray(subs, vals) and accumarray(subs, vals, sz) with fmad
%   values: the values sharing a subscript are summed, so are their
%   derivatives. A function, a fill value or a sparse result is not
%   supported. The subscripts are constants (their values are used).
  if nargin < 3
    sz = [];
  end
  if (nargin >= 4 && ~isempty(func)) || (nargin >= 5 && ~isempty(fillval) && fillval ~= 0) ...
     || (nargin >= 6 && sparse_result)
    unsupported('accumarray with a function, a fill value or a sparse result', ...
                'only sums of the values have a rule');
  end
  subs = base_value(subs);
  count = size(subs, 1);
  if numel(vals) == 1
    vals = take(vals, ones(count, 1));
  end
  % The builtin gives the result's size (its rules for SZ and the largest
  % subscripts); entry k goes to the linear position of its subscripts.
  shape = size(accumarray(subs, zeros(count, 1), sz));
  if size(subs, 2) == 1
    positions = subs;
  else
    columns = num2cell(subs, 1);
    positions = sub2ind(shape, columns{:});
  end
  gather = sparse(positions, 1:count, 1, prod(shape), count);
  z = reshape(gather * reshape(vals, [], 1), shape);
end
