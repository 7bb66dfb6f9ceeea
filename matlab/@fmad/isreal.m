function r = isreal(x)
%ISREAL  True when the value and derivatives of an fmad object are real.
  r = isreal(x.value) && isreal(x.derivs);
end
