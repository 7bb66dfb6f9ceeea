function y = tan(x)
%TAN  Tangent of an fmad object.
  [y, done] = on_engine('tan', x);
  if done
    return
  end
  value = tan(x.value);
  y = unary_chain(x, value, 1 + value .^ 2);
end
