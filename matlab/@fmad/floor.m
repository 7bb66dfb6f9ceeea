function r = floor(x)
%FLOOR  floor() of the value of an fmad object: piecewise constant, so a double.
  r = floor(base_value(x));
end
