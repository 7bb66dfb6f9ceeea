function z = power(a, b)
%POWER  a .^ b for fmad objects (base, exponent or both active).
  z = binary_elementwise(a, b, 'power');
end
