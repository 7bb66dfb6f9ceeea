function z = plus(a, b)
%PLUS  a + b for fmad objects (with implicit expansion).
  z = binary_elementwise(a, b, 'plus');
end
