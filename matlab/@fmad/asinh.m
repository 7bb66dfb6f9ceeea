function y = asinh(x)
%ASINH  Inverse hyperbolic sine of an fmad object.
  [y, done] = on_engine('asinh', x);
  if done
    return
  end
  y = unary_chain(x, asinh(x.value), 1 ./ sqrt(x.value .^ 2 + 1));
end
