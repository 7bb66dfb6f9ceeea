function y = norm(x, p)
%NORM  Vector p-norms (p = 2 default, 1, Inf, -Inf, any p > 0) and the
%   matrix norms 2 (default), 'fro', 1 and Inf of fmad objects. The matrix
%   2-norm has first derivatives only (not under nesting).
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
  elseif p == 2
    y = matrix_two_norm(x);
  else
    unsupported('norm', 'of the matrix norms only 2, ''fro'', 1 and Inf are supported');
  end
end

function y = matrix_two_norm(x)
  % The largest singular value s = u' A v, whose derivative is u' dA v
  % = kron(v, u)' vec(dA) while s is simple. Second derivatives would need
  % the derivatives of u and v too.
  if isa(x.value, 'fmad')
    unsupported('norm', 'second derivatives of the matrix 2-norm; its first derivatives are supported');
  end
  [u, s, v] = svd(full(x.value));
  singular_values = diag(s);
  if numel(singular_values) > 1 && singular_values(2) == singular_values(1)
    unsupported('norm', 'the matrix 2-norm where the largest singular value is repeated (not differentiable)');
  end
  y = x;
  y.value = singular_values(1);
  y.derivs = reshape(u(:, 1) * v(:, 1)', 1, []) * x.derivs;
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
