function y = sqrt(x)
%SQRT  Square root of an fmad object.
  value = sqrt(x.value);
  y = unary_chain(x, value, 0.5 ./ value);
end
