function a = broadcast_to(a, sz)
% A scalar stays scalar; any other array is replicated along its singleton
% dimensions up to size SZ (works for sparse and fmad arrays, unlike +).
  asz = size(a);
  if numel(a) == 1 || isequal(asz, sz)
    return
  end
  n = max(numel(asz), numel(sz));
  asz(end+1:n) = 1;
  sz(end+1:n) = 1;
  a = repmat(a, sz ./ asz);
end
