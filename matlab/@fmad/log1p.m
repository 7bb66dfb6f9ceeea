function y = log1p(x)
%LOG1P  log(1 + x) of an fmad object, accurate for small x.
  y = unary_chain(x, log1p(x.value), 1 ./ (1 + x.value));
end
