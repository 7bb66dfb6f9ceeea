function x = squeeze(x)
%SQUEEZE  Remove the singleton dimensions of an N-D fmad object (2-D stays).
  sz = size(x.value);
  if numel(sz) > 2
    sz(sz == 1) = [];
    sz(end+1:2) = 1;
    x.value = reshape(x.value, sz);
  end
end
