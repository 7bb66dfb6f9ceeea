function y = expint(x)
%EXPINT  Exponential integral E1 of an fmad object: E1'(x) = -exp(-x)/x.
  y = unary_chain(x, expint(x.value), -exp(-x.value) ./ x.value);
end
