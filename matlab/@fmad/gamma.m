function y = gamma(x)
%GAMMA  Gamma function of an fmad object: gamma'(x) = gamma(x) psi(x).
  value = gamma(x.value);
  y = unary_chain(x, value, value .* psi(x.value));
end
