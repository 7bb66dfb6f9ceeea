function r = spdiags(varargin) %#ok<STOUT>
%SPDIAGS  Not supported on fmad objects.
  unsupported('spdiags', 'no rule for diagonals of active values; build the matrix with sparse(i, j, v) instead');
end
