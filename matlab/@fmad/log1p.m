function y = log1p(x)
%LOG1P  log(1 + x) of an fmad object, accurate for small x.
  [y, done] = on_engine('log1p', x);
  if done
    return
  end
  y = unary_chain(x, log1p(x.value), 1 ./ (1 + x.value));
end
