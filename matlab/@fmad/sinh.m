function y = sinh(x)
%SINH  Hyperbolic sine of an fmad object.
  y = unary_chain(x, sinh(x.value), cosh(x.value));
end
