function r = isnan(x)
%ISNAN  isnan() of the value of an fmad object.
  r = isnan(base_value(x));
end
