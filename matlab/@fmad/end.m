function e = end(x, k, n)
%END  Last index of dimension K of an fmad object indexed with N subscripts.
  if n == 1
    e = numel(x.value);
    return
  end
  sz = size(x.value);
  sz(end+1:k) = 1;
  if k < n
    e = sz(k);
  else
    e = prod(sz(k:end));
  end
end
