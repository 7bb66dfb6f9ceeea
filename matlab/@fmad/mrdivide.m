function x = mrdivide(a, b)
%MRDIVIDE  a / b with fmad objects (a / b = (b.' \ a.').').
  if numel(b) == 1
    x = binary_elementwise(a, b, 'rdivide');
  else
    x = (b.' \ a.').';
  end
end
