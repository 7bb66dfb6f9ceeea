function z = ldivide(a, b)
%LDIVIDE  a .\ b for fmad objects (with implicit expansion).
  [z, done] = on_engine('rdivide', b, a);
  if done
    return
  end
  z = binary_elementwise(b, a, 'rdivide');
end
