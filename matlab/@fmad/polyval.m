function [y, dy] = polyval(p, x, ~, mu)
%POLYVAL  Polynomial P evaluated at X by Horner's rule, P or X (or both)
%   fmad objects; polyval(p, x, [], mu) evaluates at (x - mu(1)) / mu(2).
%   The error estimate [y, dy] = polyval(p, x, S) is not supported.
  if nargout > 1
    unsupported('[y, dy] = polyval(p, x, S)', 'the error estimate dy');
  end
  if nargin == 4
    x = (x - take(mu, 1)) / take(mu, 2);
  end
  if isempty(p)
    y = zeros(size(x));
    return
  end
  y = take(p, 1) * ones(size(x));
  for k = 2:numel(p)
    y = y .* x + take(p, k);
  end
end
