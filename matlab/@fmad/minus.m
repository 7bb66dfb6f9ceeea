function z = minus(a, b)
%MINUS  a - b for fmad objects (with implicit expansion).
  z = binary_elementwise(a, b, 'minus');
end
