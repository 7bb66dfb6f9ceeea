function r = isempty(x)
%ISEMPTY  True when the value of an fmad object has no elements.
  r = isempty(x.value);
end
