function r = lt(a, b)
%LT  a < b on the values of fmad objects (a logical array).
  r = base_value(a) < base_value(b);
end
