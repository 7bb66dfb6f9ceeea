function y = nth_element(x, n, dim)
%NTH_ELEMENT  The n-th smallest elements of an fmad object along a dimension
%   (n a scalar or a range), in the order sort defines.
  if nargin < 3
    dim = default_dim(size(x.value));
  end
  positions = repmat({':'}, 1, max(ndims(x.value), dim));
  positions{dim} = n;
  y = take(sort(x, dim), positions{:});
end
