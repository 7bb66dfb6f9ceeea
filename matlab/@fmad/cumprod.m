function y = cumprod(x, dim)
%CUMPROD  Cumulative product of an fmad object along a dimension.
%   A prefix scan of log2(n) elementwise products: no division, so exact
%   where elements are zero.
  sz = size(x.value);
  if nargin < 2
    dim = default_dim(sz);
  end
  [before, len, after] = dim_layout(sz, dim);
  y = reshape(x, before, len, after);
  shift = 1;
  while shift < len
    y = cat(2, take(y, ':', 1:shift, ':'), ...
            take(y, ':', shift+1:len, ':') .* take(y, ':', 1:len-shift, ':'));
    shift = 2 * shift;
  end
  y = reshape(y, sz);
end
