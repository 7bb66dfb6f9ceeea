function [before, len, after] = dim_layout(sz, dim)
% An array of size SZ seen as before x len x after around dimension DIM.
  sz(end+1:dim) = 1;
  before = prod(sz(1:dim-1));
  len = sz(dim);
  after = prod(sz(dim+1:end));
end
