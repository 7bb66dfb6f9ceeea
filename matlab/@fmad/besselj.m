function y = besselj(nu, x)
%BESSELJ  Bessel function of an fmad argument X (the order NU a constant scalar): its
%  derivative is (C_(nu-1) - C_(nu+1))/2.
  y = bessel_chain(@besselj, 'besselj', nu, x, 1, -1);
end
