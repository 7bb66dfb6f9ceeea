function y = cos(x)
%COS  Cosine of an fmad object.
  y = unary_chain(x, cos(x.value), -sin(x.value));
end
