function n = ndims(x)
%NDIMS  Number of dimensions of the value of an fmad object.
  n = ndims(x.value);
end
