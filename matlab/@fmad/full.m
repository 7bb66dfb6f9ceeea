function x = full(x)
%FULL  fmad object with full storage of its value and its derivatives.
  x.value = full(x.value);
  x.derivs = full(x.derivs);
end
