function y = tan(x)
%TAN  Tangent of an fmad object.
  value = tan(x.value);
  y = unary_chain(x, value, 1 + value .^ 2);
end
