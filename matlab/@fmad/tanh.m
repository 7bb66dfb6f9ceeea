function y = tanh(x)
%TANH  Hyperbolic tangent of an fmad object.
  [y, done] = on_engine('tanh', x);
  if done
    return
  end
  value = tanh(x.value);
  y = unary_chain(x, value, 1 - value .^ 2);
end
