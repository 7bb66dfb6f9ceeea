function y = asinh(x)
%ASINH  Inverse hyperbolic sine of an fmad object.
  y = unary_chain(x, asinh(x.value), 1 ./ sqrt(x.value .^ 2 + 1));
end
