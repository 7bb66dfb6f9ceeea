function y = lgamma(x)
%LGAMMA  As gammaln.
  y = gammaln(x);
end
