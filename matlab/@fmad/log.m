function y = log(x)
%LOG  Natural logarithm of an fmad object.
  y = unary_chain(x, log(x.value), 1 ./ x.value);
end
