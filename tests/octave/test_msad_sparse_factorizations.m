function test_msad_sparse_factorizations()
% det, chol and lu of sparse matrices on sparse factors (issue #22 item 3): values, class, sparsity
% and shape against Octave itself; d det against the complex step and central differences, forward
% and reverse; factors of a sparse matrix that depends on x, and Hessians through det, are clear
% msad:notDifferentiable errors.
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

  % What is not differentiated is a clear error.
  % (Handles named first: Octave does not capture x for @() around @(x).)
  factor_chol = @(x) chol(K(x)) * ones(n, 1);
  factor_lu = @(x) lu(K(x)) * ones(n, 1);
  singular = @(x) det(sparse(1:n, 1:n, [x(1:n-1); 0], n, n));
  expect_error(@() derivative_of(factor_chol, x, struct()), 'msad:notDifferentiable', 'chol');
  expect_error(@() derivative_of(factor_lu, x, struct()), 'msad:notDifferentiable', 'lu');
  expect_error(@() derivative_of(singular, x, struct()), 'msad:notDifferentiable', 'singular');
  expect_error(@() hessian_of(detK, x), 'msad:notDifferentiable', 'det');
end


function varargout = outputs_of(A, form, count)
  for k = 1:count
    varargout{k} = msad_eval(@sparse_factor_output, 1, struct(), A, form, k);
  end
end


function J = derivative_of(fun, x, opts)
  [~, J] = msad_eval(fun, x, opts);
end


function H = hessian_of(fun, x)
  [~, ~, H] = msad_eval(fun, x);
end
