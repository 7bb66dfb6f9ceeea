function test_msad_factorizations()
% TEST_MSAD_FACTORIZATIONS  lu, qr, the vectors of svd, null, orth and the complex eigenvalues of a
% real matrix (issue 24): values against Octave's own (LU and QR factors as LAPACK signs them, the
% packed one-output forms included; singular vectors up to sign; null and orth as subspaces),
% Jacobians against central differences in forward and reverse mode, and clear errors where no
% derivative exists.
  x = [0.31; 0.52; 0.74; 0.43; 0.65; 0.86];
  A = @(x) [x(1) + 2, x(2), x(3); x(4), x(5) - 1, x(6); 1, x(1) * x(2), 3];
  cases = {
    'lu', @(x) lu(A(x));
    'lu tall', @(x) lu(reshape(x, 3, 2));
    'lu wide', @(x) lu(reshape(x, 2, 3));
    'qr', @(x) qr(A(x));
    'qr tall', @(x) qr(reshape(x, 3, 2));
    'qr wide', @(x) qr(reshape(x, 2, 3));
    'svd econ', @(x) svd(reshape(x, 3, 2), 0);
  };
  for k = 1:rows(cases)
    [label, fun] = cases{k, :};
    [f, J] = msad_eval(fun, x);
    check_value(f, fun(x), 1e-13, [label, ' value']);
    check_jacobian(J, fd_jacobian(fun, x), 1e-5, [label, ' Jacobian']);
    check_reverse_gradient(fun, x, J, label);
  end

  % [L, U], [L, U, P] and [Q, R] (fixture factors_of) are Octave's factors, signs included.
  check_value(msad_eval(@factors_of, x), factors_of(x), 1e-13, 'lu and qr factors');
  [~, J] = msad_eval(@factors_of, x);
  check_jacobian(J, fd_jacobian(@factors_of, x), 1e-5, 'lu and qr factors Jacobian');
  % Reverse mode: the factors' own adjoints (square lu, square and economy qr) and the transposed rules.
  check_reverse_gradient(@factors_of, x, J, 'lu and qr factors');

  % [U, S, V] = svd: S as Octave's, U and V up to the sign of each column, U S V' = A.
  y = msad_eval(@svd_vectors_of, x);
  [U, S, V] = deal(reshape(y(1:9), 3, 3), reshape(y(10:18), 3, 3), reshape(y(19:27), 3, 3));
  [Uo, So, Vo] = svd(A(x));
  check_value(S, So, 1e-13, 'svd S');
  check_value(abs(U' * Uo), eye(3), 1e-12, 'svd U up to sign');
  check_value(abs(V' * Vo), eye(3), 1e-12, 'svd V up to sign');
  check_value(U * S * V', A(x), 1e-13, 'svd U S V''');
  [~, J] = msad_eval(@svd_vectors_of, x);
  check_jacobian(J, fd_jacobian(@(x) msad_eval(@svd_vectors_of, x), x), 1e-5, '[U, S, V] = svd Jacobian');

  % null and orth: Octave's sizes and subspaces.
  R = [1 2 3; 2 4 6];
  N = msad_eval(@(x) null(x(1) * R), x);
  No = null(x(1) * R);
  assert(isequal(size(N), size(No)), 'null: size %s, Octave %s', mat2str(size(N)), mat2str(size(No)));
  check_value(N * N', No * No', 1e-13, 'null subspace');
  O = msad_eval(@(x) orth(x(1) * R'), x);
  check_value(O, orth(x(1) * R'), 1e-13, 'orth of a rank-one matrix');
  assert(isequal(size(msad_eval(@(x) null(x(1) * eye(2)), x)), [2 0]), 'null of a regular matrix');

  % Complex eigenvalues of a real matrix: Octave's values.
  rotation = @(x) eig([x(1) 2 0; -3 x(2) 0; 0 0 x(3)]);
  check_value(sort_complex(msad_eval(rotation, x)), sort_complex(rotation(x)), 1e-13, 'complex eig');

  % No derivative: a clear error (the handles named first: Octave's anonymous functions do not capture
  % a variable that a nested one's parameter shadows).
  null_of = @(x) null(x(1) * R);
  orth_of = @(x) orth(x(1) * R');
  tie = @(x) lu([x(1) 1; 0.31 2]);
  expect_error(@() jacobian_of(null_of, x), 'msad:notDifferentiable', 'null');
  expect_error(@() jacobian_of(orth_of, x), 'msad:notDifferentiable', 'orth');
  expect_error(@() jacobian_of(@svd_full_u_of, x), 'msad:notDifferentiable', 'completing U');
  expect_error(@() jacobian_of(tie, x), 'msad:notDifferentiable', 'pivot');
  printf('  factorizations: lu, qr, svd, null, orth and complex eig as Octave, Jacobians vs central differences\n');
end

function z = sort_complex(z)
  [~, order] = sortrows([real(z), imag(z)]);
  z = z(order);
end

function jacobian_of(fun, x)
  [~, ~] = msad_eval(fun, x);
end
