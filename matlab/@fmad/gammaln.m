function y = gammaln(x)
%GAMMALN  Logarithm of the gamma function of an fmad object: its derivative is psi(x).
  y = unary_chain(x, gammaln(x.value), psi(x.value));
end
