function z = rdivide(a, b)
%RDIVIDE  a ./ b for fmad objects (with implicit expansion).
  [z, done] = on_engine('rdivide', a, b);
  if done
    return
  end
  z = binary_elementwise(a, b, 'rdivide');
end
