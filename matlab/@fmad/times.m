function z = times(a, b)
%TIMES  a .* b for fmad objects (with implicit expansion).
  z = binary_elementwise(a, b, 'times');
end
