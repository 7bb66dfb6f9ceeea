function s = sign(x)
%SIGN  Signum of the value of an fmad object (a double: its derivative is 0).
  s = sign(base_value(x));
end
