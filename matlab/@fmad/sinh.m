function y = sinh(x)
%SINH  Hyperbolic sine of an fmad object.
  [y, done] = on_engine('sinh', x);
  if done
    return
  end
  y = unary_chain(x, sinh(x.value), cosh(x.value));
end
