function test_msad_roots()
% TEST_MSAD_ROOTS  fzero and fminbnd of functions of x (issue 24): values against Octave's own
% solvers (fzero to its tolerance, fminbnd step for step), derivatives by the implicit function
% theorem against the analytic ones and central differences (first and second: fminbnd's Hessian, of the
% minimiser and of the minimum), and clear errors where none exists.
  x = [0.31; 0.52; 0.74];
  % The zero r of t^3 + p t - q: dr/dp = -r / (3 r^2 + p), dr/dq = 1 / (3 r^2 + p).
  for start = {0.5, [0 2]}
    cubic = @(x) fzero(@(t) t ^ 3 + x(1) * t - x(2), start{1});
    [r, J] = msad_eval(cubic, x, struct('mode', 'forward'));
    check_value(r, cubic(x), 1e-14, ['fzero from ', mat2str(start{1})]);
    % Both slopes are exact (df/dt from the handle run again in forward mode in t): rounding only.
    slope = 3 * r ^ 2 + x(1);
    check_value(J(:)', [-r / slope, 1 / slope, 0], 1e-14, ['fzero derivative from ', mat2str(start{1})]);
    [~, J] = msad_eval(cubic, x, struct('mode', 'reverse'));
    check_value(J(:)', [-r / slope, 1 / slope, 0], 1e-14, ['fzero reverse derivative from ', mat2str(start{1})]);
  end
  % The options made outside (Octave's optimset.m loops over struct fields, which msad does not run).
  tight = optimset('TolX', 1e-12);
  wave = @(x) fzero(@(t) cos(x(1) * t) - x(2) * t, [0 2], tight);
  [r, J] = msad_eval(wave, x, struct('mode', 'forward'));
  check_value(r, wave(x), 1e-12, 'fzero with TolX');
  check_jacobian(J(:)', fd_jacobian(wave, x), 1e-6, 'fzero Jacobian');
  % The minimum of exp(p t) - q t: t = log(q / p) / p.
  for tolx = {1e-4, 1e-10}
    options = optimset('TolX', tolx{1});
    valley = @(x) fminbnd(@(t) exp(x(1) * t) - x(2) * t, -3, 3, options);
    t = msad_eval(valley, x, struct('mode', 'forward'));
    assert(t == valley(x), 'fminbnd: %.17g, Octave %.17g', t, valley(x));
  end
  [t, J] = msad_eval(valley, x, struct('mode', 'forward'));
  exact = log(x(2) / x(1)) / x(1);
  check_value(J(:)', [-exact / x(1) - 1 / x(1) ^ 2, 1 / (x(1) * x(2)), 0], 1e-6, 'fminbnd derivative');
  % Reverse mode follows the handle holding x on the tape: the same J as forward mode.
  [~, J_reverse] = msad_eval(wave, x, struct('mode', 'reverse'));
  [~, J_forward] = msad_eval(wave, x, struct('mode', 'forward'));
  check_value(J_reverse(:)', J_forward(:)', 1e-12, 'fzero reverse against forward');
  [~, J_reverse] = msad_eval(valley, x, struct('mode', 'reverse'));
  [~, J_forward] = msad_eval(valley, x, struct('mode', 'forward'));
  check_value(J_reverse(:)', J_forward(:)', 1e-10, 'fminbnd reverse against forward');
  check_minimum_hessians(x);
  % No derivative at a minimum of zero curvature.
  flat = @(x) fminbnd(@(t) (t - x(1)) ^ 4, -3, 3, optimset('TolX', 1e-10));
  expect_error(@() jacobian_of(flat, x, 'forward'), 'msad:notDifferentiable', 'curvature');
  % No derivative at a multiple zero.
  triple = @(x) fzero(@(t) t ^ 3 - x(1) + 0.31, [-1 1]);
  expect_error(@() jacobian_of(triple, x, 'forward'), 'msad:notDifferentiable', 'slope is 0');
  printf('  roots: fzero and fminbnd as Octave, derivatives by the implicit function theorem\n');
end

function check_minimum_hessians(x)
% The minimiser r(a, b) of f = (t - a)^2 w + t^4, w = 1 + b^2, and the minimum f(r): H of b r and of f(r)
% against the implicit function theorem's at the computed r, with g = df/dt: r_i = -g_i / g_t,
% r_ij = -(g_ij + g_ti r_j + g_tj r_i + g_tt r_i r_j) / g_t.
  [a, b] = deal(x(1), x(2));
  w = 1 + b ^ 2;
  options = optimset('TolX', 1e-10);
  [scaled, ~, H] = msad_eval(@(x) x(2) * fminbnd(@(t) (t - x(1)) ^ 2 * (1 + x(2) ^ 2) + t ^ 4, -3, 3, options), x);
  r = scaled / b;
  g_t = 2 * w + 12 * r ^ 2;
  g_i = [-2 * w; 4 * b * (r - a)];
  g_ti = [0; 4 * b];
  g_ij = [0, -4 * b; -4 * b, 4 * (r - a)];
  r_i = -g_i / g_t;
  r_ij = -(g_ij + g_ti * r_i' + r_i * g_ti' + 24 * r * (r_i * r_i')) / g_t;
  expected = zeros(3);
  expected(1:2, 1:2) = b * r_ij + [0, r_i(1); r_i(1), 2 * r_i(2)];
  check_value(H, expected, 1e-11, 'fminbnd Hessian of the minimiser');
  [~, ~, H] = msad_eval(@(x) fminbnd_minimum_of(x, 2), x);
  f_t = 2 * (r - a) * w + 4 * r ^ 3;
  f_ij = [2 * w, -4 * b * (r - a); -4 * b * (r - a), 2 * (r - a) ^ 2];
  expected(1:2, 1:2) = g_t * (r_i * r_i') + g_i * r_i' + r_i * g_i' + f_t * r_ij + f_ij;
  check_value(H, expected, 1e-11, 'fminbnd Hessian of the minimum');
end

function jacobian_of(fun, x, mode)
  [~, ~] = msad_eval(fun, x, struct('mode', mode));
end
