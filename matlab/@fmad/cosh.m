function y = cosh(x)
%COSH  Hyperbolic cosine of an fmad object.
  [y, done] = on_engine('cosh', x);
  if done
    return
  end
  y = unary_chain(x, cosh(x.value), sinh(x.value));
end
