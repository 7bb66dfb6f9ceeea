function y = tanh(x)
%TANH  Hyperbolic tangent of an fmad object.
  value = tanh(x.value);
  y = unary_chain(x, value, 1 - value .^ 2);
end
