function y = erfinv(x)
%ERFINV  Inverse error function of an fmad object: erfinv'(x) = sqrt(pi)/2 exp(erfinv(x)^2).
  value = erfinv(x.value);
  y = unary_chain(x, value, sqrt(pi) / 2 * exp(value .^ 2));
end
