function x = conj(x)
%CONJ  Complex conjugate of an fmad object.
  x.value = conj(x.value);
  x.derivs = conj(x.derivs);
end
