function r = angle(x)
%ANGLE  Phase angle of a real fmad object: 0 or pi, piecewise constant, so a
%   double. (fmad has no rule for complex values.)
  if ~isreal(x)
    unsupported('angle', 'complex values');
  end
  r = angle(base_value(x));
end
