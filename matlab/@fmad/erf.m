function y = erf(x)
%ERF  Error function of an fmad object: erf'(x) = 2/sqrt(pi) exp(-x^2).
  y = unary_chain(x, erf(x.value), 2 / sqrt(pi) * exp(-x.value .^ 2));
end
