function r = isfinite(x)
%ISFINITE  isfinite() of the value of an fmad object.
  r = isfinite(base_value(x));
end
