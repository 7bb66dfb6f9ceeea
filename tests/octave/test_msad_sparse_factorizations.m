function test_msad_sparse_factorizations()
% det, chol and lu of sparse matrices on sparse factors (issue #22 item 3): values, class, sparsity
% and shape against Octave itself; d det against the complex step and central differences, forward
% and reverse; the factors of chol and lu of a sparse matrix that depends on x, every output form, and
% Hessians through them and det.
  n = 8;
  x = 0.4 + (1:n)' / n;
  % Symmetric positive definite (tridiagonal plus a corner entry) and unsymmetric with pivoting.
  K = @(x) sparse([1:n, 2:n, 1:n-1, 1, n], [1:n, 1:n-1, 2:n, n, 1], [4 + x; -x(2:n) / 2; -x(2:n) / 2; 0.3; 0.3], n, n);
  P0 = sparse([2 1 3 4 5 6 7 8], 1:n, [3 -1 2 5 -4 6 7 -2], n, n) + sparse(1:n-1, 2:n, 0.5, n, n);

  % det: a full scalar, as Octave's.
  for A = {K(x), P0, -K(x), sparse(3, 3), speye(0)}
    d = msad_eval(@(y) det(A{1}), x);
    assert(~issparse(d) && isscalar(d), 'det of a sparse matrix: a full scalar');
    check_value(d, det(A{1}), 1e-12 * max(1, abs(det(A{1}))), sprintf('det of a sparse %dx%d matrix', rows(A{1}), columns(A{1})));
  end

  % chol: sparse upper R with R'R = S (from S's upper triangle), and [R, p] as Octave's.
  for S = {K(x), sparse([4 2; 2 3]), sparse([1 0; 5 2])}
    R = msad_eval(@(y) chol(S{1}), x);
    o = chol(S{1});
    assert(issparse(R) && isequal(size(R), size(o)) && nnz(R) == nnz(o), 'chol: class, shape or nnz differ from Octave''s');
    check_value(full(R), full(o), 1e-13, 'chol of a sparse matrix');
  end
  for S = {K(x), sparse([4 1 0 0; 1 4 1 0; 0 1 -4 1; 0 0 1 4]), sparse([-4 1 0; 1 4 1; 0 1 4])}
    R = msad_eval(@sparse_factor_output, x, struct(), S{1}, 'chol2', 1);
    p = msad_eval(@sparse_factor_output, x, struct(), S{1}, 'chol2', 2);
    [Ro, po] = chol(S{1});
    assert(issparse(R) && isequal(size(R), size(Ro)) && p == po, '[R, p] = chol: shape or p differ from Octave''s');
    check_value(full(R), full(Ro), 1e-13, '[R, p] = chol of a sparse matrix');
  end
  indefinite = @(y) chol(sparse([4 1; 1 -4]));
  expect_error(@() msad_eval(indefinite, x), '', 'positive definite');

  % lu: sparse factors; P (and Q) full, as Octave's permutation matrices are not sparse. Every form
  % against its defining identity; the factors against Octave's where UMFPACK's pivot choice is
  % unambiguous (its threshold pivoting may prefer a sparser row where candidates are of similar size).
  for A = {K(x), P0, sparse([4 1 0; 1 5 2; 0 2 6]), sparse([0 2 0; 1 0 0; 0 0 3]), sparse([1 2; 3 4])}
    m = rows(A{1});
    [L, U, P] = outputs_of(A{1}, 'lu3', 3);
    assert(issparse(L) && issparse(U) && ~issparse(P), '[L, U, P] = lu: L and U sparse, P full');
    check_value(full(L * U), full(P * A{1}), 1e-13, 'P S = L U');
    assert(istril(L) && all(diag(L) == 1) && all(abs(nonzeros(L)) <= 1) && istriu(U), 'L unit lower with |L| <= 1, U upper');
    [L2, U2] = outputs_of(A{1}, 'lu2', 2);
    check_value(full(L2 * U2), full(A{1}), 1e-13, '[L, U] = lu: S = L U');
    check_value(full(L2), full(P' * L), 1e-15, '[L, U] = lu: L in S''s row order');
    Y = msad_eval(@(y) lu(A{1}), x);
    assert(issparse(Y), 'Y = lu(S) is sparse');
    check_value(full(Y), full(L + U - speye(m)), 1e-15, 'Y = lu(S) = L + U - I');
    [L4, U4, P4, Q4] = outputs_of(A{1}, 'lu4', 4);
    assert(issparse(L4) && issparse(U4) && ~issparse(P4) && ~issparse(Q4), '[L, U, P, Q] = lu: classes');
    check_value(full(L4 * U4), full(P4 * A{1} * Q4), 1e-13, 'P S Q = L U');
    assert(istril(L4) && istriu(U4), '[L, U, P, Q]: triangular factors');
    if m <= 3
      [Lo, Uo, Po] = lu(A{1});
      check_value(full(L), full(Lo), 1e-15, '[L, U, P] = lu: L as Octave''s');
      check_value(full(U), full(Uo), 1e-15, '[L, U, P] = lu: U as Octave''s');
      check_value(P, full(Po), 0, '[L, U, P] = lu: P as Octave''s');
      check_value(full(Y), full(lu(A{1})), 1e-15, 'Y = lu(S) as Octave''s');
    end
  end

  % d det(S(x)) = det tr(S^-1 dS): forward and reverse against the complex step and differences.
  detK = @(x) det(K(x));
  [f, J] = msad_eval(detK, x, struct('mode', 'forward'));
  check_value(f, detK(x), 1e-12 * abs(f), 'det(S(x)) value');
  % A scalar f's J is its gradient, a column.
  check_jacobian(J', cs_jacobian(detK, x), 1e-12, 'd det(S(x)) vs complex step (forward)');
  check_jacobian(J', fd_jacobian(detK, x), 1e-6, 'd det(S(x)) vs fd (forward)');
  [~, g] = msad_eval(detK, x, struct('mode', 'reverse'));
  check_jacobian(g, J, 1e-12, 'd det(S(x)): reverse = forward');
  unsym = @(x) det(P0 + sparse(1:n, 1:n, x, n, n)) * x(1);
  [~, J] = msad_eval(unsym, x);
  check_jacobian(J', cs_jacobian(unsym, x), 1e-12, 'd det of an unsymmetric pivoted S(x) vs complex step');
  [~, g] = msad_eval(unsym, x, struct('mode', 'reverse'));
  check_jacobian(g, J, 1e-12, 'd det of an unsymmetric S(x): reverse = forward');

  % The factors of chol and lu of S(x), every output form, and det: forward against central
  % differences of msad's own values (Octave's UMFPACK may pivot otherwise), reverse against forward
  % (dot-product test), Hessians of a weighted sum against differences of the gradient.
  cases = {'spd', 'det', 1; 'pivoting', 'det', 1; 'spd', 'chol', 1; 'spd', 'chol2', 1; 'indefinite', 'chol2', 1; ...
           'spd', 'lu1', 1; 'pivoting', 'lu1', 1; 'pivoting', 'lu2', 1; 'pivoting', 'lu2', 2; ...
           'pivoting', 'lu3', 1; 'pivoting', 'lu3', 2; 'pivoting', 'lu4', 1; 'pivoting', 'lu4', 2; 'spd', 'lu4', 2};
  for c = 1:rows(cases)
    [kind, form, k] = cases{c, :};
    label = sprintf('%s of an x-dependent %s S(x), output %d', form, kind, k);
    fun = @(x) sparse_factor_of_x(x, kind, form, k);
    value = @(x) msad_eval(@sparse_factor_of_x, x, struct(), kind, form, k);
    [f, J] = msad_eval(@sparse_factor_of_x, x, struct('mode', 'forward'), kind, form, k);
    % (A scalar f's J is its gradient, a column.)
    J = reshape(full(J), numel(f), numel(x));
    if any(strcmp(form, {'det', 'chol', 'chol2'}))
      check_value(f, fun(x), 1e-12 * max(1, max(abs(f))), [label, ': value as Octave''s']);
    end
    check_jacobian(J, fd_jacobian(value, x), 1e-6, [label, ' vs fd']);
    w = cos(1:numel(f))';
    [~, g] = msad_eval(@(x) w' * sparse_factor_of_x(x, kind, form, k), x, struct('mode', 'reverse'));
    check_value(g, (w' * J)', 1e-12 * max(1, norm(J, 1)), [label, ': reverse = forward']);
    weighted = @(x) w' * (sparse_factor_of_x(x, kind, form, k) .^ 2);
    [~, ~, H] = msad_eval(weighted, x);
    check_value(H, gradient_differences(weighted, x), 1e-6, [label, ': Hessian vs differences of the gradient']);
  end
  % The permutations are constant: their derivatives are zero.
  [~, J] = msad_eval(@sparse_factor_of_x, x, struct(), 'pivoting', 'lu4', 4);
  assert(nnz(J) == 0, 'Q of [L, U, P, Q] = lu(S(x)) is constant');

  % What is not differentiable is a clear error.
  singular = @(x) det(sparse(1:n, 1:n, [x(1:n-1); 0], n, n));
  expect_error(@() derivative_of(singular, x, struct()), 'msad:notDifferentiable', 'singular');
end


function varargout = outputs_of(A, form, count)
  for k = 1:count
    varargout{k} = msad_eval(@sparse_factor_output, 1, struct(), A, form, k);
  end
end


function J = derivative_of(fun, x, opts)
  [~, J] = msad_eval(fun, x, opts);
end

