function dim = default_dim(sz)
% MATLAB's default reduction dimension: the first non-singleton one.
  dim = find(sz ~= 1, 1);
  if isempty(dim)
    dim = 1;
  end
end
