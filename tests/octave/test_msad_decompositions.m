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
    check_jacobian(J, fd_jacobian(fun, x), 1e-6, [label, ' Jacobian']);
    w = cos(1:numel(f))';
    [~, g] = msad_eval(@(x) sum(w .* reshape(fun(x), [], 1)), x, struct('mode', 'reverse'));
    check_value(g, (w' * J)', 1e-12, [label, ' reverse gradient']);
  end

  % [V, D] = eig of a symmetric matrix: V up to the sign of each column, D as Octave's.
  [V, D] = msad_eval_outputs(@(x) eig_pair(S(x)), x);
  [Vo, Do] = eig(S(x));
  check_value(D, Do, 1e-13, 'eig D');
  check_value(abs(V' * Vo), eye(3), 1e-12, 'eig V up to sign');
  [~, J] = msad_eval(@(x) eig_pair(S(x)), x);
  check_jacobian(J, fd_jacobian(@(x) eig_pair(S(x)), x), 1e-6, '[V, D] = eig Jacobian');

  % [R, p] = chol: p = 0, or the failing column with the factor of the leading block, as Octave.
  B = [1 2 0; 2 1 0; 0 0 1];
  [R, p] = chol(B);
  [f, ~] = msad_eval(@(x) chol_pair(B + x(1) * 0), x);
  check_value(f, [R(:); p], 0, '[R, p] = chol of an indefinite matrix');

  % Singular and repeated cases: values as Octave, derivatives a clear error.
  check_value(msad_eval(@(x) eig(x(1) * eye(2)), x), eig(x(1) * eye(2)), 0, 'repeated eigenvalues');
  expect_error(@() msad_eval(@(x) eig(x(1) * eye(2)), x), 'msad:notDifferentiable', 'repeated eigenvalues');
  expect_error(@() msad_eval(@(x) svd([x(1) 0; 0 x(1)]), x), 'msad:notDifferentiable', 'singular values');
  expect_error(@() msad_eval(@(x) chol([1 x(1); x(1) -1]), x), '', 'positive definite');
  expect_error(@() msad_eval(@(x) sqrtm([-1 x(1); 0 2]), x), 'msad:unsupported', 'eigenvalue');
  check_value(msad_eval(@(x) det([x(1) x(1); 1 1]), x), 0, 0, 'det of a singular matrix');
  printf('  decompositions: %d functions as Octave, with Jacobians vs central differences\n', rows(cases) + 2);
end

function y = eig_pair(S)
  [V, D] = eig(S);
  y = [V(:); diag(D)];
end

function y = chol_pair(B)
  [R, p] = chol(B);
  y = [R(:); p];
end

function [V, D] = msad_eval_outputs(fun, x)
  % V and D of the eig_pair column, unpacked.
  y = msad_eval(fun, x);
  n = round(sqrt(numel(y) + 1/4) - 1/2);
  V = reshape(y(1:n * n), n, n);
  D = diag(y(n * n + 1:end));
end
