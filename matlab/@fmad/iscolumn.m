function r = iscolumn(x)
%ISCOLUMN  True when the value of an fmad object is an n x 1 column.
  sz = size(x.value);
  r = numel(sz) == 2 && sz(2) == 1;
end
