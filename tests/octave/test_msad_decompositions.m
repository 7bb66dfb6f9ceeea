function test_msad_decompositions()
% TEST_MSAD_DECOMPOSITIONS  Matrix functions and decompositions (issue 24): values against Octave's
% own expm, logm, sqrtm, chol, eig, svd, pinv (eigenvectors up to sign), Jacobians against central
% differences through msad_eval in forward and reverse mode, and the errors where a derivative does
% not exist (repeated eigenvalues, a matrix that is not positive definite).
  x = [0.31; 0.52; 0.74; 0.43; 0.65; 0.86];
  A = @(x) [2 x(1) 0; x(2) 3 x(3); 0 x(4) 4];
  S = @(x) [4 x(1) x(2); x(1) 5 x(3); x(2) x(3) 7];
  cases = {
    'expm', @(x) expm(A(x) - 3 * eye(3));
    'logm', @(x) logm(A(x));
    'sqrtm', @(x) sqrtm(A(x));
    'chol', @(x) chol(S(x));
    'eig symmetric', @(x) eig(S(x));
    'eig general', @(x) eig([x(1) 1; 0 x(2) + 1]);
    'svd', @(x) svd(reshape(x, 2, 3));
    'pinv', @(x) pinv(reshape(x, 3, 2));
    'inv of expm', @(x) inv(expm(reshape(x(1:4), 2, 2)));
  };
  for k = 1:rows(cases)
    [label, fun] = cases{k, :};
    % The value through msad_eval against Octave's own function.
    [f, J] = msad_eval(fun, x);
    check_value(f, fun(x), 1e-12, [label, ' value']);
    check_jacobian(J, fd_jacobian(fun, x), 1e-5, [label, ' Jacobian']);
    check_reverse_gradient(fun, x, J, label);
  end

  % [V, D] = eig of a symmetric matrix (fixture eig_vectors_of): V up to the sign of each column, D as
  % Octave's; [R, p] = chol (fixture chol_flag_of) as Octave's.
  y = msad_eval(@eig_vectors_of, x);
  [Vo, Do] = eig([x(1) + 2, x(2), x(3); x(2), x(4), x(5); x(3), x(5), x(6) - 2]);
  check_value(y(10:12), diag(Do), 1e-13, 'eig D');
  check_value(abs(reshape(y(1:9), 3, 3)' * Vo), eye(3), 1e-12, 'eig V up to sign');
  % Differences of Octave's eigenvectors with msad's signs (each column's largest component positive).
  [~, J] = msad_eval(@eig_vectors_of, x);
  check_jacobian(J, fd_jacobian(@(x) with_msad_signs(eig_vectors_of(x)), x), 1e-5, '[V, D] = eig Jacobian');
  [~, J] = msad_eval(@chol_flag_of, x);
  check_jacobian(J, fd_jacobian(@chol_flag_of, x), 1e-5, '[R, p] = chol Jacobian');
  check_value(msad_eval(@chol_flag_of, x), chol_flag_of(x), 1e-14, '[R, p] = chol');

  % Singular and repeated cases: values as Octave, derivatives a clear error.
  check_value(msad_eval(@(x) eig(x(1) * eye(2)), x), eig(x(1) * eye(2)), 0, 'repeated eigenvalues');
  repeated = @(x) eig(x(1) * eye(2));
  double_singular = @(x) svd([x(1) 0; 0 x(1)]);
  indefinite = @(x) chol([1 x(1); x(1) -1]);
  negative = @(x) sqrtm([-1 x(1); 0 2]);
  expect_error(@() jacobian_of(repeated, x), 'msad:notDifferentiable', 'repeated eigenvalues');
  expect_error(@() jacobian_of(double_singular, x), 'msad:notDifferentiable', 'singular values');
  expect_error(@() jacobian_of(indefinite, x), '', 'positive definite');
  expect_error(@() jacobian_of(negative, x), 'msad:unsupported', 'eigenvalue');
  singular = @(x) [x(1) x(1); 1 1];
  check_value(msad_eval(@(x) det(singular(x)), x), det(singular(x)), 0, 'det of a singular matrix');
  warning('off', 'Octave:singular-matrix', 'local');
  assert(isequal(msad_eval(@(x) inv(singular(x)), x), inv(singular(x))), 'inv of a singular matrix is Octave''s Inf');
  printf('  decompositions: %d functions as Octave, with Jacobians vs central differences\n', rows(cases) + 2);
end

function jacobian_of(fun, x)
  % Asks msad_eval for the Jacobian (where the errors about derivatives arise).
  [~, ~] = msad_eval(fun, x);
end

function y = with_msad_signs(y)
  % The eig_vectors_of column with each eigenvector's largest-magnitude component positive.
  V = reshape(y(1:9), 3, 3);
  [~, i] = max(abs(V));
  V = V .* sign(V(sub2ind([3 3], i, 1:3)));
  y(1:9) = V(:);
end
