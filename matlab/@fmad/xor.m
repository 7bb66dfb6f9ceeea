function r = xor(a, b)
%XOR  Exclusive or of the values of fmad objects.
  r = xor(base_value(a), base_value(b));
end
