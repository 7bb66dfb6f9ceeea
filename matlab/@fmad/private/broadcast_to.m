function a = broadcast_to(a, sz)
% A replicated along its singleton dimensions up to size SZ (works for
% sparse and fmad arrays, unlike implicit expansion).
  asz = size(a);
  if isequal(asz, sz)
    return
  end
  n = max(numel(asz), numel(sz));
  asz(end+1:n) = 1;
  sz(end+1:n) = 1;
  a = repmat(a, sz ./ asz);
end
