function test_msad_sparse_derivatives()
% Sparse matrices that depend on x (issue #22): values, class and shape against Octave itself, and
% Jacobians against central differences and the complex step (transposes written .', which the
% complex step needs); the implicit Euler step (speye(n) - h*A(x)) \ u0 exactly.
  n = 7;
  x = 0.4 + (1:n)' / n;
  u0 = cos((1:n)');
  h = 0.1;
  e = ones(n - 1, 1);
  fwd = struct('mode', 'forward');

  % (speye(n) - h*A(x)) \ u0 with A(x) tridiagonal, assembled by sparse(i, j, v, m, n).
  tridiagonal = @(x) sparse([1:n, 2:n, 1:n-1], [1:n, 1:n-1, 2:n], [-2 * x.^2; x(2:n); sin(x(1:n-1))], n, n);
  step = @(x) (speye(n) - h * tridiagonal(x)) \ u0;
  [f, J] = msad_eval(step, x);
  check_value(f, step(x), 1e-13, 'implicit Euler step value');
  check_jacobian(J, fd_jacobian(step, x), 1e-6, 'implicit Euler step Jacobian vs fd');
  check_jacobian(J, cs_jacobian(step, x), 1e-12, 'implicit Euler step Jacobian vs complex step');
  [~, Jf] = msad_eval(step, x, fwd);
  check_jacobian(Jf, J, 1e-13, 'implicit Euler step: forward = auto');

  % spdiags of x-dependent diagonals, then A*x, A'*x, A + B, scalings, u0 / A.
  S = @(x) spdiags([x, -2 * x.^2, [x(2:end); 0]], [-1, 0, 1], n, n);
  cases = {@(x) S(x) * x, 'spdiags(B(x)) * x'; ...
           @(x) S(x).' * u0, 'A(x).'' * u0'; ...
           @(x) (S(x) + 2 * speye(n) - S(x).' / 3) * x, 'A + B, A - B / c'; ...
           @(x) full(x(1) * S(x)), 'full(c(x) * A(x))'; ...
           @(x) u0' / (3 * speye(n) + S(x) / 10), 'u0'' / A(x)'; ...
           @(x) reshape([x.'; u0.'; x.'.^2] / (3 * speye(n) + S(x) / 10), [], 1), '[x''; u0''; x''.^2] / A(x)'; ...
           @(x) (5 * speye(n) - S(x) / 4) \ x, 'A(x) \ x'; ...
           @(x) S(x)(2:4, 3), 'A(x)(2:4, 3)'; ...
           @(x) full(S(x) * S(x).')(:, 3), 'A(x) * B(x), both sparse'; ...
           @(x) sum(S(x)).' + sum(S(x), 2), 'sum(A(x)), sum(A(x), 2)'; ...
           @(x) sparse([1 2 2 3], [1 1 1 2], x(1:4) .* [1 0 1 1]', 3, 2) * [1; 2], 'sparse with duplicates and zeros'; ...
           @(x) kron(S(x)(1:2, 1:2), sparse([1 2; 0 3]) + S(x)(3:4, 4:5)) * x(1:4), 'kron(A(x), B(x))'; ...
           @(x) full(kron(x(1:2), S(x)(2:3, 2:4)))(:), 'kron(x, A(x))'};
  for k = 1:rows(cases)
    fun = cases{k, 1};
    [f, J] = msad_eval(fun, x, fwd);
    check_value(full(f), full(fun(x)), 1e-13, [cases{k, 2} ' value']);
    check_jacobian(J, fd_jacobian(fun, x), 1e-6, [cases{k, 2} ' Jacobian vs fd']);
    check_jacobian(J, cs_jacobian(fun, x), 1e-12, [cases{k, 2} ' Jacobian vs complex step']);
  end

  % A sparse f: value, class, shape and stored zeros as Octave's; J per element of f.
  g = @(x) spdiags([x, x.^2 - x(3)^2], [0, 1], n, n);
  [f, J] = msad_eval(g, x);
  assert(issparse(f) && isequal(size(f), [n n]), 'sparse f keeps its class and shape');
  assert(nnz(f) == nnz(g(x)), 'sparse f: nnz %d, Octave %d', nnz(f), nnz(g(x)));
  check_value(full(f), full(g(x)), 1e-14, 'sparse f value');
  check_jacobian(J, fd_jacobian(@(x) reshape(full(g(x)), [], 1), x), 1e-7, 'sparse f Jacobian vs fd');

  % A structural entry whose value is zero at x keeps its derivative.
  z = @(x) sparse([1 2], [1 2], [x(1) - x(1); x(2)], 2, 2) * [1; 1];
  [~, J] = msad_eval(z, x, fwd);
  check_jacobian(J, fd_jacobian(z, x), 1e-7, 'entry zero at x');

  % Class conformance of constructors and operations on constant sparse values.
  A = sparse([1 3 2], [1 1 3], [4 0 5], 3, 3);
  r = msad_eval(@(x) A * 2 + speye(3) * x(1), x);
  assert(issparse(r) && nnz(r) == nnz(A * 2 + speye(3) * x(1)), 'sparse sum: class and nnz as Octave');
  p = msad_eval(@(x) A * A.' * x(1), x);
  assert(issparse(p) && nnz(p) == nnz(A * A.' * x(1)), 'sparse product: class and nnz as Octave');
  check_value(full(p), full(A * A.' * x(1)), 1e-14, 'sparse product value');
  b = msad_eval(@(x) (speye(3) * 4 + A) \ x(1:3), x);
  check_value(b, (speye(3) * 4 + A) \ x(1:3), 1e-14, 'constant sparse solve');

  % Reverse mode and Hessians through x-dependent sparse matrices (adjoints per stored entry).
  obj = @(x) sum(step(x).^2) + x.' * (S(x) * x);
  [~, grad] = msad_eval(obj, x, struct('mode', 'reverse'));
  check_value(grad, cs_jacobian(obj, x)', 1e-12, 'reverse gradient through the implicit Euler step vs complex step');
  [~, g, H] = msad_eval(obj, x);
  check_value(g, grad, 1e-13, 'gradient with the Hessian');
  check_jacobian(H, fd_jacobian(@(x) derivative_of(obj, x, struct('mode', 'reverse')), x), 1e-6, 'Hessian vs fd of the gradient');
  pick = @(x) sum(S(x)(2:4, 3)) + S(x)(4, :) * x;
  [~, grad] = msad_eval(pick, x, struct('mode', 'reverse'));
  check_value(grad, cs_jacobian(pick, x)', 1e-12, 'reverse gradient of an indexed sparse matrix vs complex step');
  % Assigning into one is forward mode only: a clear error in reverse mode, 'auto' runs forward.
  x4 = x(1:4);
  expect_error(@() derivative_of(@sparse_assign_objective, x4, struct('mode', 'reverse')), 'msad:unsupported', 'sparse matrix that depends on x');
  [~, grad] = msad_eval(@sparse_assign_objective, x4);
  check_value(grad, cs_jacobian(@sparse_assign_objective, x4)', 1e-12, 'gradient through a sparse assignment (auto)');

  % Indexing and summing a sparse matrix give sparse results as in Octave (class, shape, nnz, values), and the
  % Jacobian of the x-dependent one is per element of f.
  picks = {@(x) S(x)(2:5, 3:4), @(x) S(x)(:, 2), @(x) S(x)(3, :), @(x) S(x)([1 9 10]), @(x) A(2:3, [1 3]) * x(1), @(x) A(:) * x(2), ...
           @(x) sum(S(x)), @(x) sum(S(x), 2), @(x) sum(A) * x(1)};
  for k = 1:numel(picks)
    [f, J] = msad_eval(picks{k}, x);
    o = picks{k}(x);
    label = func2str(picks{k});
    assert(issparse(f) && isequal(size(f), size(o)) && nnz(f) == nnz(o), '%s: class, shape or nnz differ from Octave''s', label);
    check_value(full(f), full(o), 1e-15, [label ' value']);
    check_jacobian(J, fd_jacobian(@(x) reshape(full(picks{k}(x)), [], 1), x), 1e-7, [label ' Jacobian vs fd']);
  end

  % Elementwise steps, scalings, transposes and concatenations keep Octave's class, sparsity, shape and
  % nnz (a full D of S's size read at S's entries); their Jacobians against central differences (at
  % the finite elements: [S, D] holds D's Inf).
  D = reshape(1:n^2, n, n) / n; D(1, 3) = Inf; D(2, 2) = 0;
  F = D; F(1, 3) = 3;
  ops = {@(x) abs(S(x) - 0.5 * speye(n)), @(x) S(x) .* S(x).', @(x) S(x) .* F, @(x) F .* S(x), @(x) S(x) .^ 2, ...
         @(x) S(x) .^ 0, @(x) S(x) * 3, @(x) -S(x), @(x) S(x)', @(x) S(x).', @(x) [S(x), D], @(x) [S(x); A(1, :) * ones(3, n)], ...
         @(x) [S(x), S(x).'], @(x) [x, S(x)], @(x) [S(x), []], @(x) [sparse([1 2], [1 2], [x(1) - x(1); x(2)], 2, 2), speye(2)], ...
         @(x) diag(sparse(x)), @(x) diag(S(x)), @(x) diag(S(x), 1), @(x) kron(S(x)(1:2, 1:2), A)};
  for k = 1:numel(ops)
    [f, J] = msad_eval(ops{k}, x);
    o = ops{k}(x);
    label = func2str(ops{k});
    assert(strcmp(class(f), class(o)) && issparse(f) == issparse(o) && isequal(size(f), size(o)) && nnz(f) == nnz(o), ...
           '%s: class, sparsity, shape or nnz differ from Octave''s', label);
    check_value(full(f), full(o), 1e-14, [label ' value']);
    fd = fd_jacobian(@(x) reshape(full(ops{k}(x)), [], 1), x);
    finite = isfinite(full(o(:)));
    check_jacobian(J(finite, :), fd(finite, :), 1e-7, [label ' Jacobian vs fd']);
  end
  % A full operand's zero that depends on x cannot be stored by a sparse concatenation: a clear error.
  at = x;
  zero_at_x = @(x) [speye(n), x - at];
  expect_error(@() derivative_of(zero_at_x, x, fwd), 'msad:notDifferentiable', 'depends on x');
end


function J = derivative_of(fun, x, opts)
  [~, J] = msad_eval(fun, x, opts);
end
