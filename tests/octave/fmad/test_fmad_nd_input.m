% N-D input seeded with the external form [size(x0) nd]: elementwise
% functions, reductions along the third dimension, permute and indexing of
% 3-D fmad arrays, against central differences.
fmadtest_setup;
x0 = reshape(linspace(0.2, 1.4, 12), [2 3 2]);
n = numel(x0);
seed = reshape(eye(n), [size(x0) n]);       % external form of the identity
x = fmad(x0, seed);
if ~isequal(size(getinternalderivs(x)), [n n])
  error('external-form seed not converted to the internal %dx%d form', n, n);
end
f = @(x) reshape(sum(x .^ 2 .* exp(-x), 3) + permute(prod(x, 3), [2 1]).' ...
                 + cumsum(x(:, :, 2), 2) .* x(:, end:-1:1, 1), [], 1);
y = f(x);
fmadtest_check(getvalue(y), f(x0), 1e-14, 'value');
fmadtest_check(getinternalderivs(y), fd_jacobian(f, x0), 1e-7, ...
               'N-D Jacobian vs central differences');

% Derivatives of an N-D result in external form keep the value's shape.
z = x(:, :, 1) .* x(:, :, 2);
D = getderivs(z);
if ~isequal(size(D), [2 3 n])
  error('getderivs of a 2x3 result with %d directions has size %s', n, mat2str(size(D)));
end
fmadtest_check(D(:, :, 1), [x0(1, 1, 2), 0, 0; 0, 0, 0], 1e-15, 'external form slice');

% One direction given as an array shaped like the value.
w = sum(sum(sum(fmad(x0, ones(size(x0))) .^ 2)));
fmadtest_check(getinternalderivs(w), 2 * sum(x0(:)), 1e-14, 'single N-D direction');
