function x = diag(x, k)
%DIAG  diag(v, k) of an fmad vector (a matrix) or diag(A, k) of an fmad
%   matrix (a column of its k-th diagonal).
  if nargin < 2
    k = 0;
  end
  sz = size(x.value);
  x.value = diag(x.value, k);
  if numel(sz) == 2 && min(sz) == 1
    map = diag(1:prod(sz), k);       % zero off the diagonal
    x.derivs = rows_from_map(map, x.derivs, [], size(x.derivs, 2));
  else
    map = diag(reshape(1:prod(sz), sz), k);
    x.derivs = take(x.derivs, map, ':');
  end
end
