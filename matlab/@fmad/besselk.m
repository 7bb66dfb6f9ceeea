function y = besselk(nu, x)
%BESSELK  Bessel function of an fmad argument X (the order NU a constant scalar): its
%  derivative is -(K_(nu-1) + K_(nu+1))/2.
  y = bessel_chain(@besselk, 'besselk', nu, x, -1, -1);
end
