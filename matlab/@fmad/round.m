function r = round(x)
%ROUND  round() of the value of an fmad object: piecewise constant, so a double.
  r = round(base_value(x));
end
