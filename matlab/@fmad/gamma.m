function y = gamma(x)
%GAMMA  Gamma function of an fmad object: gamma'(x) = gamma(x) psi(x).
  [y, done] = on_engine('gamma', x);
  if done
    return
  end
  value = gamma(x.value);
  y = unary_chain(x, value, value .* psi(x.value));
end
