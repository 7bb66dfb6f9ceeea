function y = asin(x)
%ASIN  Inverse sine of an fmad object.
  y = unary_chain(x, asin(x.value), 1 ./ sqrt(1 - x.value .^ 2));
end
