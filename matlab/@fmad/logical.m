function r = logical(x)
%LOGICAL  Value of an fmad object converted to logical (as in if x, ...).
  r = logical(base_value(x));
end
