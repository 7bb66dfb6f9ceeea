function r = iscomplex(x)
%ISCOMPLEX  True when the value of an fmad object is complex.
  r = iscomplex(base_value(x));
end
