function y = acos(x)
%ACOS  Inverse cosine of an fmad object.
  y = unary_chain(x, acos(x.value), -1 ./ sqrt(1 - x.value .^ 2));
end
