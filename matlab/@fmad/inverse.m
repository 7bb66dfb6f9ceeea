function y = inverse(x)
%INVERSE  Matrix inverse of an fmad object (Octave's alias of inv).
  y = inv(x);
end
