function y = acosh(x)
%ACOSH  Inverse hyperbolic cosine of an fmad object (x > 1 for real results).
  y = unary_chain(x, acosh(x.value), 1 ./ (sqrt(x.value - 1) .* sqrt(x.value + 1)));
end
