% Reductions and cumulative operations along dimensions, against central
% differences: sum, mean, prod (also with a zero element), cumsum, diff,
% dot, norm, and max/min in reduction and elementwise form.
fmadtest_setup;
x0 = [0.9 -1.2 0.4; 2.1 0.3 -0.7; -0.5 1.6 1.1; 0.8 -0.2 1.3];   % 4 x 3
n = numel(x0);
on_matrix = @(op) @(p) reshape(op(reshape(p, size(x0))), [], 1);
check = @(name, op) fmadtest_check( ...
    getinternalderivs(feval(on_matrix(op), fmad(x0(:), speye(n)))), ...
    fd_jacobian(on_matrix(op), x0(:)), 1e-7, name);
check('sum', @(X) sum(X));
check('sum dim 2', @(X) sum(X, 2));
check('sum dim 3', @(X) sum(X, 3));
check('mean', @(X) [mean(X), mean(X, 2)']);
check('prod', @(X) prod(X));
check('prod dim 2', @(X) prod(X, 2));
check('cumsum', @(X) cumsum(X));
check('cumsum dim 2', @(X) cumsum(X, 2));
check('diff', @(X) diff(X));
check('diff order 2 dim 2', @(X) diff(X, 2, 2));
check('dot of columns', @(X) dot(X(:, 1), X(:, 2)));
check('dot row with column', @(X) dot(X(1, :), X(2, :)'));
check('dot dim 2', @(X) dot(X, X.^2, 2));
check('norm 2', @(X) norm(X(:, 1)));
check('norm 1 / Inf / 3', @(X) [norm(X(:, 2), 1), norm(X(2, :), Inf), norm(X(:, 3), 3)]);
check('matrix norms', @(X) [norm(X, 'fro'), norm(X, 1), norm(X, Inf)]);
check('max', @(X) max(X));
check('min dim 2', @(X) min(X, [], 2));
check('max dim 2 of a 3-D slice', @(X) max(cat(3, X, 2 * X(:, end:-1:1)), [], 3));
check('sort', @(X) sort(X));
check('sort dim 2 descending', @(X) sort(X, 2, 'descend'));
check('bsxfun', @(X) bsxfun(@times, X, X(1, :)) + bsxfun(@minus, X, X(:, 2)));
check('max elementwise', @(X) max(X, 0.5));
check('min elementwise broadcast', @(X) min(X, X(:, 2)));

% prod with a zero element: derivative is the product of the others.
z = prod(fmad([2; 0; 3], eye(3)));
fmadtest_check(getinternalderivs(z), [0 6 0], 0, 'prod with a zero element');

% Selected index and an fmad result even when the constant wins everywhere.
[m, i] = max(fmad([1 5 3], eye(3)));
if i ~= 2 || getvalue(m) ~= 5
  error('max index/value wrong');
end
fmadtest_check(getinternalderivs(m), [0 1 0], 0, 'max derivative of the selected element');
c = max(fmad([1 2], eye(2)), 10);
if ~isa(c, 'fmad') || any(getinternalderivs(c)(:) ~= 0)
  error('max with a larger constant must be an fmad object with zero derivatives');
end
