function x = transpose(x)
%TRANSPOSE  x.' for fmad objects.
  sz = size(x.value);
  x.value = x.value.';
  if numel(sz) == 2 && min(sz) > 1     % a vector keeps its element order
    order = reshape(1:prod(sz), sz).';
    x.derivs = take(x.derivs, order(:), ':');
  end
end
