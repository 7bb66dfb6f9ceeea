function test_msad_roots()
% TEST_MSAD_ROOTS  fzero and fminbnd of functions of x (issue 24): values against Octave's own
% solvers (fzero to its tolerance, fminbnd step for step), derivatives by the implicit function
% theorem against the analytic ones and central differences, and clear errors where none exists.
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
  % No derivative at a multiple zero.
  triple = @(x) fzero(@(t) t ^ 3 - x(1) + 0.31, [-1 1]);
  expect_error(@() jacobian_of(triple, x, 'forward'), 'msad:notDifferentiable', 'slope is 0');
  printf('  roots: fzero and fminbnd as Octave, derivatives by the implicit function theorem\n');
end

function jacobian_of(fun, x, mode)
  [~, ~] = msad_eval(fun, x, struct('mode', mode));
end
