function y = cbrt(x)
%CBRT  Real cube root of an fmad object.
  value = cbrt(x.value);
  y = unary_chain(x, value, 1 ./ (3 * value .^ 2));
end
