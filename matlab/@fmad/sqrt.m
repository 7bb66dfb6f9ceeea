function y = sqrt(x)
%SQRT  Square root of an fmad object.
  [y, done] = on_engine('sqrt', x);
  if done
    return
  end
  value = sqrt(x.value);
  y = unary_chain(x, value, 0.5 ./ value);
end
