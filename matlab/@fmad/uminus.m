function x = uminus(x)
%UMINUS  -x for fmad objects.
  x.value = -x.value;
  x.derivs = -x.derivs;
end
