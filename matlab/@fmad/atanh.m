function y = atanh(x)
%ATANH  Inverse hyperbolic tangent of an fmad object.
  y = unary_chain(x, atanh(x.value), 1 ./ (1 - x.value .^ 2));
end
