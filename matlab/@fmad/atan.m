function y = atan(x)
%ATAN  Inverse tangent of an fmad object.
  y = unary_chain(x, atan(x.value), 1 ./ (1 + x.value .^ 2));
end
