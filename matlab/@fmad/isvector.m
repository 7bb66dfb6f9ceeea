function r = isvector(x)
%ISVECTOR  True when the value of an fmad object is a 1 x n or n x 1 vector.
  sz = size(x.value);
  r = numel(sz) == 2 && min(sz) == 1;
end
