function y = erfcinv(x)
%ERFCINV  Inverse complementary error function of an fmad object: erfcinv'(x) = -sqrt(pi)/2 exp(erfcinv(x)^2).
  value = erfcinv(x.value);
  y = unary_chain(x, value, -sqrt(pi) / 2 * exp(value .^ 2));
end
