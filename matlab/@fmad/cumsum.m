function y = cumsum(x, dim)
%CUMSUM  Cumulative sum of an fmad object along a dimension.
  sz = size(x.value);
  if nargin < 2
    dim = default_dim(sz);
  end
  y = x;
  y.value = cumsum(x.value, dim);
  y.derivs = apply_along_dim(x.derivs, sz, dim, @(t) cumsum(t, 1));
end
