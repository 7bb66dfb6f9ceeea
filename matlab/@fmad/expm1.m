function y = expm1(x)
%EXPM1  exp(x) - 1 of an fmad object, accurate for small x.
  value = expm1(x.value);
  y = unary_chain(x, value, value + 1);
end
