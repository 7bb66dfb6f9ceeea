function f = grid_quartic(x, L)
% GRID_QUARTIC  0.5 x' L x + sum(x.^4) / 4 with L a captured 5-point Laplacian: H = L + 3 diag(x.^2)
%   has the 2-D grid's pattern.
  f = 0.5 * x' * (L * x) + sum(x.^4) / 4;
end
