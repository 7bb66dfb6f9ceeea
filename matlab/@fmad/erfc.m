function y = erfc(x)
%ERFC  Complementary error function of an fmad object: erfc'(x) = -2/sqrt(pi) exp(-x^2).
  y = unary_chain(x, erfc(x.value), -2 / sqrt(pi) * exp(-x.value .^ 2));
end
