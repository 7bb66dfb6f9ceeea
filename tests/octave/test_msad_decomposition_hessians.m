function test_msad_decomposition_hessians()
% TEST_MSAD_DECOMPOSITION_HESSIANS  [f, g, H] = msad_eval(...) through chol, [R, p] = chol, lu and qr
% (every result), svd's values, [U, S, V] = svd (every result; squares, as Octave's signs may differ), a general
% matrix's eigenvalues, [V, D] = eig, fzero's zero and fminbnd's minimiser (searched to 1e-14 on a function whose
% minimum is 0, so that no search noise enters the differences) (issue 24): H against
% second differences of f computed by Octave alone (its own builtins and fzero), against central
% differences of msad's gradient, and the Hessian with the detected pattern against the one without
% (opts.sparsity = 'none'); at two points.
  tight = optimset('TolX', 1e-14);
  objectives = {@(x) sum(sin(factors_of(x))), @(x) sum(sin(chol_flag_of(x))), ...
                @(x) sum(sum(chol([4 x(1) x(2); x(1) 5 x(3); x(2) x(3) 6]) .^ 3)), ...
                @(x) sum(sum(lu(reshape(x, 2, 3)) .^ 3)) + sum(sum(qr(reshape(x, 3, 2)) .^ 3)), ...
                @(x) sum(svd([x(1) x(2) x(3); x(4) x(5) x(6) + 1]) .^ 3), ...
                @(x) sum(eig([x(1) 1 x(3); 0.2 x(2) + 1 x(4); x(5) 0.3 x(6) + 2]) .^ 3), ...
                @(x) sum(eig_vectors_of(x) .^ 2 .* (1:12)'), ...
                @(x) fzero(@(t) t ^ 3 + (x(1) + 2) * t - x(2) * x(3), [-3 3]) ^ 2 * x(4), ...
                @(x) sum(svd_vectors_of(x) .^ 2 .* (1:69)'), ...
                @(x) fminbnd(@(t) (t + (1 + x(2) ^ 2) * t ^ 3 / 3 - x(1)) ^ 2 * (1 + x(3) ^ 2), -3, 3, tight) ^ 2 * x(4)};
  names = {'[L, U, P] = lu, [Q, R] = qr', '[R, p] = chol', 'chol', 'lu, qr', 'svd', 'eig', '[V, D] = eig', 'fzero', ...
           '[U, S, V] = svd', 'fminbnd'};
  for x = [[0.31; 0.52; 0.74; 0.43; 0.65; 0.86], [0.9; -0.4; 0.2; 1.1; -0.7; 0.5]]
    for k = 1:numel(objectives)
      f = objectives{k};
      [value, ~, H] = msad_eval(f, x, struct('jacobian', 'full'));
      check_value(value, f(x), 1e-10, [names{k}, ': value']);
      check_value(H, second_differences(f, x), 1e-4, [names{k}, ': H vs Octave''s second differences']);
      check_value(H, fd_jacobian(@(y) gradient_of(f, y), x), 1e-6, [names{k}, ': H vs differences of g']);
      [~, ~, every] = msad_eval(f, x, struct('jacobian', 'full', 'sparsity', 'none'));
      check_value(every, H, 1e-13, [names{k}, ': H without the pattern']);
    end
  end
  % Equal singular values: the vectors have no derivative, first or second.
  repeated = @(x) svd_repeated_objective(x);
  expect_error(@() hessian_of(repeated, [0.31; 0.52; 0.74; 0.43; 0.65; 0.86]), 'msad:notDifferentiable', 'repeated');
  printf('  decomposition Hessians: chol, lu, qr, svd, eig, fzero, fminbnd against second differences\n');
end

function hessian_of(fun, x)
  [~, ~, ~] = msad_eval(fun, x);
end

function g = gradient_of(fun, x)
  [~, g] = msad_eval(fun, x);
end

function H = second_differences(fun, x)
% Central differences of Octave's own central-difference gradient.
  H = fd_jacobian(@(y) fd_jacobian(fun, y)', x);
  H = (H + H') / 2;
end
