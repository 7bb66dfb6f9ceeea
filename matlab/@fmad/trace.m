function t = trace(x)
%TRACE  Sum of the diagonal of a square fmad matrix.
  t = sum(diag(x));
end
