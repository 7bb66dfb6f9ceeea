function y = abs(x)
%ABS  Absolute value of a real fmad object (derivative sign(x), 0 at 0).
  y = unary_chain(x, abs(x.value), sign(x.value));
end
