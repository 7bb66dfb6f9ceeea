function z = accumarray(subs, vals, sz, func, fillval, sparse_result)
%ACCUMARRAY  accumarray(subs, vals, sz, func, fillval) with fmad values:
%   by default the values sharing a subscript are summed (so are their
%   derivatives); with FUNC, FUNC gets each group's values as a column in
%   their order and returns a scalar. Positions no subscript names hold
%   FILLVAL (default 0). Sparse results are not supported. The
%   subscripts are constants (their values are used).
  if nargin < 3
    sz = [];
  end
  if nargin < 4
    func = [];
  end
  if nargin < 5 || isempty(fillval)
    fillval = 0;
  end
  if nargin >= 6 && sparse_result
    unsupported('accumarray with a sparse result', 'sparse arrays of fmad values are assembled by sparse(i, j, v)');
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
  if isempty(func)
    gather = sparse(positions, 1:count, 1, prod(shape), count);
    z = reshape(gather * reshape(vals, [], 1), shape);
    if fillval ~= 0
      z = put(z, fillval, accumarray(positions, 1, [prod(shape) 1]) == 0);
    end
  else
    z = fillval * ones(shape);
    for p = reshape(unique(positions), 1, [])
      z = put(z, func(take(vals, find(positions == p))), p);
    end
  end
end
