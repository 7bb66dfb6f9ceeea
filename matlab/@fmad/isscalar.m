function r = isscalar(x)
%ISSCALAR  True when the value of an fmad object is a scalar.
  r = numel(x.value) == 1;
end
