function y = cosh(x)
%COSH  Hyperbolic cosine of an fmad object.
  y = unary_chain(x, cosh(x.value), sinh(x.value));
end
