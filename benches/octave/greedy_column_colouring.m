function colours = greedy_column_colouring(pattern)
% GREEDY_COLUMN_COLOURING  Colours (column vector, 1..p) of the columns of a sparsity pattern.
%   Columns that share a row get different colours (distance-2 colouring of the
%   bipartite row/column graph), so all columns of one colour can be differenced
%   together. Greedy in natural column order: optimal (max entries per row) for
%   the banded patterns of the benchmarks.
  structure = spones(sparse(double(pattern)));
  conflicts = structure' * structure;
  n = columns(structure);
  colours = zeros(n, 1);
  for j = 1:n
    neighbourColours = colours(find(conflicts(:, j)));
    taken = false(numel(neighbourColours) + 1, 1);
    taken(neighbourColours(neighbourColours > 0 & neighbourColours <= numel(taken))) = true;
    colours(j) = find(~taken, 1);
  end
end
