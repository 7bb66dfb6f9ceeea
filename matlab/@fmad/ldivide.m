function z = ldivide(a, b)
%LDIVIDE  a .\ b for fmad objects (with implicit expansion).
  z = binary_elementwise(b, a, 'rdivide');
end
