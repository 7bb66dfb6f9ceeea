function y = besselk(nu, x)
%BESSELK  Bessel function of an fmad argument X (the order NU a constant scalar): its
%  derivative is -(K_(nu-1) + K_(nu+1))/2.
  if isa(nu, 'fmad') || ~isscalar(nu)
    unsupported('besselk with an fmad or non-scalar order NU', 'msad_eval takes orders of any shape');
  end
  y = unary_chain(x, besselk(nu, x.value), -(besselk(nu - 1, x.value) + besselk(nu + 1, x.value)) / 2);
end
