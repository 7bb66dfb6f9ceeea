function y = cbrt(x)
%CBRT  Real cube root of an fmad object.
  [y, done] = on_engine('cbrt', x);
  if done
    return
  end
  value = cbrt(x.value);
  y = unary_chain(x, value, 1 ./ (3 * value .^ 2));
end
