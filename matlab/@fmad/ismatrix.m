function r = ismatrix(x)
%ISMATRIX  True when the value of an fmad object is 2-D.
  r = ndims(x.value) == 2;
end
