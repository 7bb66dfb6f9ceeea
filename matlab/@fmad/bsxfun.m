function z = bsxfun(fn, a, b)
%BSXFUN  bsxfun(fn, a, b) with fmad objects: fmad operations expand
%   singleton dimensions implicitly, so this is fn(a, b).
  z = fn(a, b);
end
