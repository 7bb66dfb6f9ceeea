function y = erfcx(x)
%ERFCX  Scaled complementary error function of an fmad object: erfcx'(x) = 2x erfcx(x) - 2/sqrt(pi).
  value = erfcx(x.value);
  y = unary_chain(x, value, 2 * x.value .* value - 2 / sqrt(pi));
end
