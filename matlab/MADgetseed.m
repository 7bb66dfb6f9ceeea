function seed = MADgetseed(pattern, colours)
%MADGETSEED  Seed matrix of a column colouring.
%   SEED = MADGETSEED(PATTERN, COLOURS) is the n x p 0/1 matrix with
%   SEED(j, COLOURS(j)) = 1, n = size(PATTERN, 2), p = max(COLOURS). Seeding
%   x = fmad(x0, SEED) gives getinternalderivs(f(x)) = J * SEED, the
%   compressed Jacobian; MADuncompressJac recovers J from it.
%
%   See also MADcolor, MADuncompressJac, fmad.
  n = size(pattern, 2);
  if numel(colours) ~= n
    error('MADgetseed:badInput', 'MADgetseed: %d colours for %d columns', numel(colours), n);
  end
  seed = full(sparse(1:n, colours(:)', 1, n, max([colours(:); 0])));
end
