function y = abs(x)
%ABS  Absolute value of a real fmad object (derivative sign(x), 0 at 0).
  [y, done] = on_engine('abs', x);
  if done
    return
  end
  y = unary_chain(x, abs(x.value), sign(x.value));
end
