function [J, f0] = forward_fd_jacobian(fun, x, pattern, colours)
% FORWARD_FD_JACOBIAN  Jacobian by forward differences (numjac-style), dense or colour-compressed.
%   [J, f0] = forward_fd_jacobian(fun, x): dense, one evaluation per column.
%   [J, f0] = forward_fd_jacobian(fun, x, pattern, colours): all columns of one colour
%   are stepped together (see greedy_column_colouring), one evaluation per colour, and
%   J (sparse) is recovered: J(i,j) = difference(i, colours(j)) / step(j) on the pattern.
%   Step for x_j: sqrt(eps) * max(|x_j|, 1), the forward-difference balance of
%   truncation (step) against rounding (eps / step) error.
  f0 = fun(x);
  n = numel(x);
  dense = nargin < 3;
  if dense
    colours = (1:n).';
  end
  step = sqrt(eps) * max(abs(x(:)), 1);
  step = (x(:) + step) - x(:);   % the step actually represented in floating point
  differences = zeros(numel(f0), max(colours));
  for c = 1:columns(differences)
    stepped = x;
    inColour = colours == c;
    stepped(inColour) = x(inColour) + step(inColour);
    fStepped = fun(stepped);
    differences(:, c) = fStepped(:) - f0(:);
  end
  if dense
    J = differences ./ step.';
  else
    [rows, cols] = find(pattern);
    compressedIndex = rows + numel(f0) * (colours(cols) - 1);
    J = sparse(rows, cols, differences(compressedIndex) ./ step(cols), numel(f0), n);
  end
end
