function colours = MADcolor(pattern)
%MADCOLOR  Column colouring of a Jacobian sparsity pattern for compression.
%   COLOURS = MADCOLOR(PATTERN) assigns a colour 1..p to each column of the
%   m x n sparsity pattern (any numeric or logical matrix, nonzero = entry)
%   so that no two columns of the same colour have an entry in the same row
%   (a distance-2 colouring of the bipartite row/column graph, Curtis-Powell-
%   Reid). All columns of one colour can then share one derivative direction.
%   COLOURS is a 1 x n row. Greedy colouring, in natural and in largest-first
%   order; the one with fewer colours is returned. The maximum number of
%   entries in a row is a lower bound (reached for banded patterns).
%
%   Example (compressed Jacobian of a tridiagonal function: 3 colours for 6 columns):
%     f = @(x) [x(1:end-1) .* x(2:end); 0] + [0; x(1:end-1).^2] + x;
%     x0 = (1:6)';
%     pattern = msad_pattern(f, x0);
%     colours = MADcolor(pattern);
%     x = fmad(x0, MADgetseed(pattern, colours));
%     J = MADuncompressJac(getinternalderivs(f(x)), pattern, colours);
%     [~, Jmsad] = msad_eval(f, x0);
%     assert(max(colours) == 3 && norm(full(J - Jmsad)) < 1e-12)
%
%   See also MADgetseed, MADuncompressJac, fmad.
  structure = spones(sparse(double(pattern ~= 0)));
  n = size(structure, 2);
  % Columns sharing a row must differ: neighbours in the column intersection graph.
  neighbours = spones(structure' * structure);
  neighbours = neighbours - spdiags(diag(neighbours), 0, n, n);
  [~, largest_first] = sort(full(sum(neighbours, 1)), 'descend');
  colours = greedy_colouring(neighbours, 1:n);
  other = greedy_colouring(neighbours, largest_first);
  if max([other, 0]) < max([colours, 0])
    colours = other;
  end
end

function colours = greedy_colouring(neighbours, order)
  % Each column, in ORDER, takes the smallest colour none of its neighbours has.
  n = numel(order);
  colours = zeros(1, n);
  [rows, cols] = find(neighbours);
  first = [1; cumsum(accumarray(cols, 1, [n 1])) + 1];   % CSC-style column starts
  used = zeros(1, n + 1);            % used(c) == j: colour c is taken by a neighbour of j
  most = 0;                          % colours in use so far
  for j = order
    adjacent = colours(rows(first(j):first(j+1)-1));
    used(adjacent(adjacent > 0)) = j;
    colours(j) = find(used(1:most+1) ~= j, 1);
    most = max(most, colours(j));
  end
end
