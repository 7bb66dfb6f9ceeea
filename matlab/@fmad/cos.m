function y = cos(x)
%COS  Cosine of an fmad object.
  [y, done] = on_engine('cos', x);
  if done
    return
  end
  y = unary_chain(x, cos(x.value), -sin(x.value));
end
