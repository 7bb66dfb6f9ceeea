function y = log10(x)
%LOG10  Base-10 logarithm of an fmad object.
  y = unary_chain(x, log10(x.value), 1 ./ (log(10) * x.value));
end
