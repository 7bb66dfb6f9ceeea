function y = exp(x)
%EXP  Exponential of an fmad object.
  [y, done] = on_engine('exp', x);
  if done
    return
  end
  value = exp(x.value);
  y = unary_chain(x, value, value);
end
