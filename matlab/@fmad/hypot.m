function z = hypot(a, b)
%HYPOT  sqrt(abs(a).^2 + abs(b).^2) for fmad objects.
  [z, done] = on_engine('hypot', a, b);
  if done
    return
  end
  z = binary_elementwise(a, b, 'hypot');
end
