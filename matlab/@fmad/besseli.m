function y = besseli(nu, x)
%BESSELI  Bessel function of an fmad argument X (the order NU a constant scalar): its
%  derivative is (I_(nu-1) + I_(nu+1))/2.
  if isa(nu, 'fmad') || ~isscalar(nu)
    unsupported('besseli with an fmad or non-scalar order NU', 'msad_eval takes orders of any shape');
  end
  y = unary_chain(x, besseli(nu, x.value), (besseli(nu - 1, x.value) + besseli(nu + 1, x.value)) / 2);
end
