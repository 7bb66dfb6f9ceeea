function y = sin(x)
%SIN  Sine of an fmad object.
  y = unary_chain(x, sin(x.value), cos(x.value));
end
