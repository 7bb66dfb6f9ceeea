function y = linspace(base, limit, n)
%LINSPACE  N points from BASE to LIMIT (default 100) with fmad ends:
%   base .* (1 - t) + limit .* t with t = (0:n-1) / (n-1), so the ends are
%   exact; column vector ends give one row each. N is a constant.
  if nargin < 3
    n = 100;
  end
  n = floor(base_value(n));
  base = reshape(base, [], 1);
  limit = reshape(limit, [], 1);
  if n < 2
    % Octave: linspace(a, b, 1) is b, and fewer points give none.
    y = take(limit, ':', ones(1, max(n, 0)));
    return
  end
  t = (0:n-1) / (n - 1);
  y = base .* (1 - t) + limit .* t;
end
