function z = atan2(y, x)
%ATAN2  Four-quadrant arctangent of fmad objects.
  [z, done] = on_engine('atan2', y, x);
  if done
    return
  end
  z = binary_elementwise(y, x, 'atan2');
end
