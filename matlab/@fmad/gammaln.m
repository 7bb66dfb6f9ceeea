function y = gammaln(x)
%GAMMALN  Logarithm of the gamma function of an fmad object: its derivative is psi(x).
  [y, done] = on_engine('gammaln', x);
  if done
    return
  end
  y = unary_chain(x, gammaln(x.value), psi(x.value));
end
