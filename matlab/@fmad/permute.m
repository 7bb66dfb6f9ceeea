function x = permute(x, order)
%PERMUTE  Rearrange the dimensions of an fmad object.
  map = permute(reshape(1:numel(x.value), size(x.value)), order);
  x.value = permute(x.value, order);
  x.derivs = take(x.derivs, map(:), ':');
end
