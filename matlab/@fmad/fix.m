function r = fix(x)
%FIX  fix() of the value of an fmad object: piecewise constant, so a double.
  r = fix(base_value(x));
end
