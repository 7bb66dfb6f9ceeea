function r = isinf(x)
%ISINF  isinf() of the value of an fmad object.
  r = isinf(base_value(x));
end
