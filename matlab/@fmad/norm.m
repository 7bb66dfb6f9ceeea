function y = norm(x, p)
%NORM  Vector p-norms (p = 2 default, 1, Inf, -Inf, any p > 0) and the
%   matrix norms 'fro', 1 and Inf of fmad objects.
  if nargin < 2
    p = 2;
  end
  sz = size(x.value);
  if ischar(p) && strcmpi(p, 'fro')
    y = sqrt(sum(abs(reshape(x, [], 1)) .^ 2));
  elseif numel(sz) == 2 && min(sz) == 1
    y = vector_norm(reshape(x, [], 1), p);
  elseif p == 1
    y = max(sum(abs(x), 1));
  elseif p == Inf
    y = max(sum(abs(x), 2));
  else
    unsupported('norm', 'of the matrix norms only ''fro'', 1 and Inf are supported');
  end
end

function y = vector_norm(x, p)
  if p == 2
    y = sqrt(sum(abs(x) .^ 2));
  elseif p == 1
    y = sum(abs(x));
  elseif p == Inf
    y = max(abs(x));
  elseif p == -Inf
    y = min(abs(x));
  else
    y = sum(abs(x) .^ p) ^ (1 / p);
  end
end
