function y = mean(x, dim)
%MEAN  Mean of the elements of an fmad object along a dimension.
  sz = size(x.value);
  if nargin < 2
    dim = default_dim(sz);
  end
  sz(end+1:dim) = 1;
  y = sum(x, dim) / sz(dim);
end
