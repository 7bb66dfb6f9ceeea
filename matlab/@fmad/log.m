function y = log(x)
%LOG  Natural logarithm of an fmad object.
  [y, done] = on_engine('log', x);
  if done
    return
  end
  y = unary_chain(x, log(x.value), 1 ./ x.value);
end
