function x = real(x)
%REAL  Real part of an fmad object.
  x.value = real(x.value);
  x.derivs = real(x.derivs);
end
