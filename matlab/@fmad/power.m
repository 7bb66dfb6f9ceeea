function z = power(a, b)
%POWER  a .^ b for fmad objects (base, exponent or both active).
  [z, done] = on_engine('power', a, b);
  if done
    return
  end
  z = binary_elementwise(a, b, 'power');
end
