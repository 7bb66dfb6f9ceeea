function r = ceil(x)
%CEIL  ceil() of the value of an fmad object: piecewise constant, so a double.
  r = ceil(base_value(x));
end
