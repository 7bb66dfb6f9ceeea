function y = sum(x, dim)
%SUM  Sum of the elements of an fmad object along a dimension.
  if nargin < 2
    [y, done] = on_engine('sum', x);
  else
    [y, done] = on_engine('sum', x, dim);
  end
  if done
    return
  end
  sz = size(x.value);
  if nargin < 2
    dim = default_dim(sz);
  end
  y = x;
  y.value = sum(x.value, dim);
  y.derivs = apply_along_dim(x.derivs, sz, dim, @(t) sum(t, 1));
end
