function z = rdivide(a, b)
%RDIVIDE  a ./ b for fmad objects (with implicit expansion).
  z = binary_elementwise(a, b, 'rdivide');
end
