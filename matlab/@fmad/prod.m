function y = prod(x, dim)
%PROD  Product of the elements of an fmad object along a dimension.
%   Computed as a tree of elementwise products (log2 steps), which needs no
%   division and so stays exact when elements are zero.
  sz = size(x.value);
  if nargin < 2
    dim = default_dim(sz);
  end
  [before, len, after] = dim_layout(sz, dim);
  out_size = sz;
  out_size(dim) = 1;
  y = reshape(x, before, len, after);
  if len == 0
    y = ones(out_size, 'like', x);
    return
  end
  while len > 1
    if mod(len, 2) == 1
      y = cat(2, y, ones(before, 1, after));
      len = len + 1;
    end
    y = take(y, ':', 1:2:len, ':') .* take(y, ':', 2:2:len, ':');
    len = len / 2;
  end
  y = reshape(y, out_size);
end
