function s = sparse(varargin)
%SPARSE  Sparse storage with fmad objects:
%   sparse(x)              value and derivatives of x stored sparse;
%   sparse(i, j, v, m, n)  with fmad entries v: the sparse matrix assembled
%                          from v (duplicates summed), also with sparse(i,j,v).
  if nargin == 1
    s = varargin{1};
    s.value = sparse(s.value);
    s.derivs = sparse(s.derivs);
    return
  end
  if nargin ~= 3 && nargin ~= 5
    error('fmad:badInput', 'fmad: use sparse(x), sparse(i, j, v) or sparse(i, j, v, m, n)');
  end
  [i, j, v] = varargin{1:3};
  if isa(i, 'fmad') || isa(j, 'fmad')
    error('fmad:badInput', 'fmad: sparse() indices must be constants');
  end
  if nargin == 5
    [m, n] = varargin{4:5};
  else
    m = max(i(:));
    n = max(j(:));
  end
  count = max([numel(i), numel(j), numel(v)]);
  positions = sub2ind([m, n], broadcast_to(i(:), [count 1]), broadcast_to(j(:), [count 1]));
  v = broadcast_to(reshape(v, [], 1), [count 1]);
  s = v;
  s.value = sparse(i, j, v.value, m, n);
  % Entries sharing a position are summed, so are their derivatives.
  s.derivs = sparse(positions, 1:count, 1, m * n, count) * v.derivs;
end
