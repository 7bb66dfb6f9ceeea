function z = times(a, b)
%TIMES  a .* b for fmad objects (with implicit expansion).
  [z, done] = on_engine('times', a, b);
  if done
    return
  end
  z = binary_elementwise(a, b, 'times');
end
