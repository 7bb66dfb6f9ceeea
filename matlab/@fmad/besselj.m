function y = besselj(nu, x)
%BESSELJ  Bessel function of an fmad argument X (the order NU a constant scalar): its
%  derivative is (C_(nu-1) - C_(nu+1))/2.
  if isa(nu, 'fmad') || ~isscalar(nu)
    unsupported('besselj with an fmad or non-scalar order NU', 'msad_eval takes orders of any shape');
  end
  y = unary_chain(x, besselj(nu, x.value), (besselj(nu - 1, x.value) - besselj(nu + 1, x.value)) / 2);
end
