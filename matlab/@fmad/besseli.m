function y = besseli(nu, x)
%BESSELI  Bessel function of an fmad argument X (the order NU a constant scalar): its
%  derivative is (I_(nu-1) + I_(nu+1))/2.
  y = bessel_chain(@besseli, 'besseli', nu, x, 1, 1);
end
