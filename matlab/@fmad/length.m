function n = length(x)
%LENGTH  Length of the value of an fmad object (0 when empty, else max(size)).
  sz = size(x.value);
  if any(sz == 0)
    n = 0;
  else
    n = max(sz);
  end
end
