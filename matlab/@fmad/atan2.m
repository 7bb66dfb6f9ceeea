function z = atan2(y, x)
%ATAN2  Four-quadrant arctangent of fmad objects.
  z = binary_elementwise(y, x, 'atan2');
end
