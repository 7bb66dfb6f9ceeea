function r = and(a, b)
%AND  a & b on the values of fmad objects.
  r = base_value(a) & base_value(b);
end
