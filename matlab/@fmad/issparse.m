function r = issparse(x)
%ISSPARSE  True when the value of an fmad object is stored sparse.
  r = issparse(x.value);
end
