function y = bessel_chain(f, name, nu, x, c_below, c_above)
% The Bessel-type function f(nu, x) of an fmad argument X (the order NU a constant scalar), its
% derivative (c_below f(nu - 1, x) + c_above f(nu + 1, x)) / 2.
  if isa(nu, 'fmad') || ~isscalar(nu)
    unsupported([name ' with an fmad or non-scalar order NU'], 'msad_eval takes orders of any shape');
  end
  v = x.value;
  y = unary_chain(x, f(nu, v), (c_below * f(nu - 1, v) + c_above * f(nu + 1, v)) / 2);
end
