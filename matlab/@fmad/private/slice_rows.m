function rows = slice_rows(sz, dim, index)
% Linear indices of the elements chosen along dimension DIM of an array of
% size SZ: INDEX (as returned by max, min or sort) holds, for each slice
% along DIM, the positions picked within that slice.
  [before, len, after] = dim_layout(sz, dim);
  picked = numel(index) / (before * after);
  slice_start = reshape(1:before, before, 1) + before * len * reshape(0:after-1, 1, 1, after);
  rows = reshape(slice_start + before * (reshape(index, before, picked, after) - 1), [], 1);
end
