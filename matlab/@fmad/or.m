function r = or(a, b)
%OR  a | b on the values of fmad objects.
  r = base_value(a) | base_value(b);
end
