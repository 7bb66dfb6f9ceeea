function r = isrow(x)
%ISROW  True when the value of an fmad object is a 1 x n row.
  sz = size(x.value);
  r = numel(sz) == 2 && sz(1) == 1;
end
