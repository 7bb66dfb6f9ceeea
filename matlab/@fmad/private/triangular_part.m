function x = triangular_part(part, x, args)
% tril or triu (PART, with the builtin's arguments ARGS) of an fmad matrix:
% the elements kept carry their derivatives, the others are constant zeros.
  sz = size(x.value);
  map = part(reshape(1:prod(sz), sz), args{:});
  x.value = part(x.value, args{:});
  x.derivs = rows_from_map(map, x.derivs, [], size(x.derivs, 2));
end
