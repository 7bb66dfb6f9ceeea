function test_msad_bidirectional()
% Jacobians with dense rows (issue #26): the arrowhead residual and a sum(x) = 1 constraint are
% computed by bidirectional passes from the second call on (2 forward directions and 1 reverse pass,
% 1 and 1); J comes back sparse, equal to the full forward Jacobian and to central differences; a
% user pattern missing entries is refused. The gradient through a sparse G*x at n = 1e5 (reverse
% mode, G never densified) matches 2*G'*(G*x).
  n = 200;
  x = 0.55 + mod((1:n)' * 7, 11) / 20;
  arrow = @(x) [x(1:end-1).^2 + x(end)^2 - x(1:end-1); sum(x.^3)];
  [f, J1] = msad_eval(arrow, x);
  [~, J2] = msad_eval(arrow, x);
  Jfull = msad_eval_jacobian(arrow, x, struct('sparsity', 'none', 'mode', 'forward'));
  check_value(f, arrow(x), 1e-14, 'arrowhead value');
  assert(issparse(J1) && issparse(J2), 'arrowhead J is sparse');
  check_value(full(J2), Jfull, 1e-14, 'bidirectional J vs full forward J');
  check_value(full(J1), Jfull, 1e-14, 'detected J vs full forward J');
  check_jacobian(J2, fd_jacobian(arrow, x), 1e-7, 'bidirectional J vs central differences');
  assert(nnz(J2) == 3 * n - 2, 'arrowhead nonzeros');
  log = evalc('[~, J3] = msad_eval(arrow, x, struct(''verbose'', true));');
  assert(~isempty(strfind(log, 'bidirectional evaluation with 2 forward directions and 1 reverse passes')), log);
  check_value(full(J3), Jfull, 1e-14, 'verbose call J');

  constrained = @(x) [x.^2 - 0.25; sum(x) - 1];
  P = [speye(n); ones(1, n)];
  [~, Jc] = msad_eval(constrained, x, struct('sparsity', P));
  assert(issparse(Jc), 'constraint J is sparse');
  check_value(full(Jc), [diag(2 * x); ones(1, n)], 1e-14, 'sum(x) = 1 constraint J');
  Pwrong = [speye(n); sparse(1, n)];
  Pwrong(n + 1, 1:n-1) = 1;
  expect_error(@() msad_eval_jacobian(constrained, x, struct('sparsity', Pwrong)), 'msad:badPattern', ...
               'sparsity pattern is wrong');

  m = 1e5;
  G = spdiags([2 + mod((1:m)', 5) / 5, -0.5 * ones(m, 1), 0.25 * ones(m, 1)], [0, 1, 7], m, m);
  y = mod((1:m)', 13) / 13;
  [v, g] = msad_eval(@(y) sum((G*y).^2), y);
  check_value(v, sum((G*y).^2), 1e-13, 'sum((G*y).^2)');
  check_value(g, 2 * (G' * (G * y)), 1e-13, 'gradient through the sparse G*y');
end

function J = msad_eval_jacobian(f, x, opts)
  [~, J] = msad_eval(f, x, opts);
end
