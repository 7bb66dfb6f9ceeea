function y = airy(k, z)
%AIRY  Airy functions of an fmad object Z (the kind K a constant): Ai'' = z Ai, Bi'' = z Bi.
  if nargin == 1
    z = k;
    k = 0;
  end
  if isa(k, 'fmad') || ~isscalar(k)
    unsupported('airy with an fmad or non-scalar kind K', 'K selects the function');
  end
  if any(k == [0 2])
    slope = airy(k + 1, z.value);
  else
    slope = z.value .* airy(k - 1, z.value);
  end
  y = unary_chain(z, airy(k, z.value), slope);
end
