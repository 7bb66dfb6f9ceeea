function y = psi(k, x)
%PSI  Digamma psi(x) and polygamma psi(k, x) of an fmad object X (K a constant): the derivative of
%  psi(k, x) is psi(k + 1, x).
  if nargin == 1
    x = k;
    k = 0;
  end
  if isa(k, 'fmad')
    unsupported('psi with an fmad order K', 'K is an integer order');
  end
  if any(base_value(x) < 0)
    unsupported('psi(k, x) (and second derivatives of gamma) at negative x', ...
                'Octave''s polygamma takes non-negative arguments only');
  end
  y = unary_chain(x, psi(k, x.value), psi(k + 1, x.value));
end
