function y = exp(x)
%EXP  Exponential of an fmad object.
  value = exp(x.value);
  y = unary_chain(x, value, value);
end
