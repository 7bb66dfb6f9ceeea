function y = sin(x)
%SIN  Sine of an fmad object.
  [y, done] = on_engine('sin', x);
  if done
    return
  end
  y = unary_chain(x, sin(x.value), cos(x.value));
end
