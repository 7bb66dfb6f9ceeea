function d = apply_along_dim(d, sz, dim, op)
% Derivatives of a linear operation applied along dimension DIM of an array
% of size SZ. OP acts on the columns of a len x k matrix (sum, cumsum,
% diff ...); it is applied to all derivative columns at once. Rows are
% permuted so that each slice along DIM is contiguous, which works for full,
% sparse (2-D only) and fmad derivatives alike.
  [before, len, after] = dim_layout(sz, dim);
  nd = size(d, 2);
  if before > 1
    d = take(d, slices_first(before, len, after), ':');
  end
  y = op(reshape(d, len, before * after * nd));
  out_len = size(y, 1);
  d = reshape(y, out_len * before * after, nd);
  if before > 1
    d = take(d, slices_first(out_len, before, after), ':');
  end
end

function order = slices_first(a, b, c)
% Row order that swaps the first two axes of an a x b x c layout.
  order = reshape(permute(reshape(1:a*b*c, [a b c]), [2 1 3]), [], 1);
end
