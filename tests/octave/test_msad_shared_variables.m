function test_msad_shared_variables()
% global and persistent variables (#21 item 5): globals are read when each call starts (a plan
% never keeps a global's value) and written back as Octave leaves them; persistents keep their
% values between calls (a call counter, problem data computed once). msad runs the code several
% times per call (sparsity detection runs both sides of a branch on x, Hessians, reverse then
% forward): the user sees each variable changed once per call, by the side Octave takes. Values
% against Octave itself, J against the complex step / hand derivatives, in every mode.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  global SHARED_SCALE SHARED_SETUPS SHARED_LOG SHARED_LAST SHARED_BEFORE_ERROR SHARED_COUNT
  x = [0.7; -1.3; 2.1];
  modes = {struct(), struct('mode', 'forward'), struct('mode', 'reverse'), struct('sparsity', 'none')};

  % A counter: once per msad call whatever the mode; the global scale as it is at each call.
  clear msad_eval
  SHARED_SCALE = 2;
  for k = 1:numel(modes)
    [v, J] = msad_eval(@shared_counter, x, modes{k});
    check_value(v, SHARED_SCALE * x .^ 2 + k, 1e-14, sprintf('counter, call %d', k));
    check_jacobian(J, diag(2 * SHARED_SCALE * x), 1e-14, 'counter J');
    SHARED_SCALE = SHARED_SCALE + 1;
  end
  [v, g, H] = msad_eval(@(y) sum(shared_counter(y)), x);
  check_value(v, sum(SHARED_SCALE * x .^ 2 + numel(modes) + 1), 1e-14, 'counter, Hessian call');
  check_jacobian(H, 2 * SHARED_SCALE * eye(3), 1e-14, 'counter H');
  v = msad_eval(@shared_counter, x);
  check_value(v, SHARED_SCALE * x .^ 2 + numel(modes) + 2, 1e-14, 'counter, value-only call');
  % Clearing msad_eval forgets msad's persistent values (as clear functions does Octave's).
  clear msad_eval
  v = msad_eval(@shared_counter, x);
  check_value(v, SHARED_SCALE * x .^ 2 + 1, 1e-14, 'counter after clear msad_eval');

  % Problem data computed once: the setup runs on the first call only.
  SHARED_SETUPS = 0;
  A = full(gallery('tridiag', 3)) + 0.5;
  for k = 1:numel(modes)
    [v, J] = msad_eval(@shared_cache, x, modes{k});
    check_value(v, A * x .^ 3, 1e-14, 'cache value');
    check_jacobian(J, A * diag(3 * x .^ 2), 1e-13, 'cache J');
  end
  [~, ~, H] = msad_eval(@(y) sum(shared_cache(y)), x);
  check_jacobian(H, diag(6 * x .* sum(A, 1).'), 1e-13, 'cache H');
  assert(SHARED_SETUPS == 1, 'setup ran %d times, once expected', SHARED_SETUPS);

  % A branch on x: detection runs both sides, the global sees only the side Octave takes.
  SHARED_LOG = [];
  shared_branch(x); shared_branch(-x);
  expected = SHARED_LOG;
  SHARED_LOG = [];
  [~, J] = msad_eval(@shared_branch, x);
  check_jacobian(J, diag(2 * x), 1e-14, 'branch J (x)');
  [~, J] = msad_eval(@shared_branch, -x, struct('mode', 'reverse'));
  check_jacobian(J, -eye(3), 1e-14, 'branch J (-x)');
  assert(isequal(SHARED_LOG, expected), 'branch log [%s], Octave gives [%s]', num2str(SHARED_LOG), num2str(expected));
  SHARED_LOG = [];
  [~, ~, H] = msad_eval(@(y) sum(shared_branch(y)), x);
  assert(isequal(SHARED_LOG, 1), 'Hessian call logs once');
  check_jacobian(H, 2 * eye(3), 1e-14, 'branch H');

  % A global that depends on x, written by a callee and read back: J flows through it; the global
  % keeps Octave's value.
  for k = 1:numel(modes)
    SHARED_LAST = [];
    [v, J] = msad_eval(@shared_active, x, modes{k});
    check_value(SHARED_LAST, x .^ 2, 1e-14, 'global written in the call');
    check_value(v, shared_active(x), 1e-14, 'active global value');
    check_jacobian(J, diag(cos(x .^ 2) .* 2 .* x + 1), 1e-14, 'active global J');
  end
  s = @(y) sum(shared_active(y));
  [~, g, H] = msad_eval(s, x);
  check_jacobian(g(:).', cs_jacobian(s, x), 1e-13, 'active global gradient');
  check_jacobian(H, diag(2 * cos(x .^ 2) - 4 * x .^ 2 .* sin(x .^ 2)), 1e-13, 'active global H');

  % A pattern decided by a persistent count: diagonal, then dense from the third call (an
  % initial value in the declaration).
  clear msad_eval
  for k = 1:4
    [~, J] = msad_eval(@shared_path, x);
    if k > 2
      check_jacobian(J, sum(x) * eye(3) + x * ones(1, 3), 1e-14, 'pattern after the count');
    else
      check_jacobian(J, 2 * eye(3), 1e-14, 'pattern before the count');
    end
  end

  % In a scalar loop: the global counts every iteration of the path taken, once per call.
  clear msad_eval
  SHARED_COUNT = 0;
  for k = 1:3
    [v, g] = msad_eval(@shared_loop, x, modes{k});
    weights = (k - 1) * 3 + (1:3).';
    check_value(v, sum(x .^ 2 .* weights), 1e-14, 'loop value');
    check_jacobian(g(:).', (2 * x .* weights).', 1e-14, 'loop gradient');
  end
  assert(SHARED_COUNT == 9, 'loop count %d, 9 expected', SHARED_COUNT);

  % A global set before an error keeps its value, as in Octave.
  SHARED_BEFORE_ERROR = [];
  expect_error(@() msad_eval(@shared_fails, x), 'shared:fails', 'too many elements');
  assert(isequal(SHARED_BEFORE_ERROR, 3), 'global set before the error');

  % A global that does not exist yet is created (as []), as Octave's `global` does.
  clear -global SHARED_NEW
  v = msad_eval(@(y) shared_creates(y), x);
  check_value(v, x, 1e-14, 'creating a global');
  assert(isempty(who('global', 'SHARED_NEW')) == false, 'the global exists after the call');

  % Unsupported: a handle kept in a persistent variable (clear error with file:line), and calling a
  % handle held in a global.
  expect_error(@() msad_eval(@shared_keeps_handle, x), 'msad:unsupported', 'persistent variable');
  expect_error(@() msad_eval(@shared_keeps_handle, x), 'msad:unsupported', 'shared_keeps_handle.m:');
end
