function x = ctranspose(x)
%CTRANSPOSE  x' for fmad objects (conjugate transpose).
  x = conj(x.');
end
