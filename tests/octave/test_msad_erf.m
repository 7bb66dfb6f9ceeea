function test_msad_erf()
% TEST_MSAD_ERF  erf, added end to end as one primitive record: values equal Octave's erf, the
% Jacobian is 2/sqrt(pi) exp(-x.^2) on the diagonal in forward and reverse mode (and matches central
% differences), and the Hessian of sum(w .* erf(x)) is diag(-2 x .* w .* erf'(x)).
  x = [-2.5; -0.7; 0; 1e-9; 0.3; 1.1; 4; 7];
  slope = 2 / sqrt(pi) * exp(-x .^ 2);
  [f, J] = msad_eval(@(x) erf(x), x, struct('mode', 'forward'));
  assert(isequal(f, erf(x)), 'erf values differ from Octave''s');
  assert(max(abs(J - diag(slope))(:)) <= 1e-15, 'forward Jacobian of erf');
  h = 1e-6;
  fd = (erf(x + h) - erf(x - h)) / (2 * h);
  assert(max(abs(diag(J) - fd)) <= 1e-8, 'forward Jacobian vs central differences');
  w = [0.5; -1; 2; 1.5; -0.25; 1; 3; -2];
  [g_value, g] = msad_eval(@(x) sum(w .* erf(x)), x, struct('mode', 'reverse'));
  assert(abs(g_value - sum(w .* erf(x))) <= 1e-15 * sum(abs(w)), 'erf value in reverse mode');
  assert(max(abs(g - w .* slope)) <= 1e-15, 'reverse gradient of sum(w .* erf(x))');
  [~, ~, H] = msad_eval(@(x) sum(w .* erf(x)), x);
  expected = diag(-2 * x .* w .* slope);
  assert(max(abs(H - expected)(:)) <= 1e-15, 'Hessian of sum(w .* erf(x))');
  printf('  erf: values, forward and reverse Jacobians and the Hessian as Octave and the formulas\n');
end
