function x = imag(x)
%IMAG  Imaginary part of an fmad object.
  x.value = imag(x.value);
  x.derivs = imag(x.derivs);
end
