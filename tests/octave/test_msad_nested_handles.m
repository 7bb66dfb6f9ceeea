function test_msad_nested_handles()
% Handles to nested functions (issue #21 item 3), returned by their parent: msad reads the parent's
% workspace the handle holds (which holds the handle itself: read without recursion), as a handle
% passed to msad_eval and as one captured by an anonymous function; and made in the parent and passed
% to other functions inside the differentiated code. Values equal Octave's; J and H
% against central differences in forward, reverse and sparse mode. A nested function that writes a
% shared variable: msad writes the final value back into the workspace the handle holds, once per
% call however often it runs the code, as Octave keeps it there; values against Octave calling a twin
% handle as often.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  x = [0.7; -1.3; 2.1];
  h = make_nested_model(3);
  Jref = fd_jacobian(h, x);
  for options = {struct(), struct('mode', 'forward', 'sparsity', 'none'), struct('mode', 'reverse'), struct('jacobian', 'sparse')}
    [v, J] = msad_eval(h, x, options{1});
    check_value(v, h(x), 1e-15, 'nested handle: value');
    check_jacobian(J, Jref, 1e-8, 'nested handle');
  end
  % Passed on: captured by an anonymous function; gradient and Hessian.
  twice = @(y) 2 * h(y);
  [v, J] = msad_eval(twice, x);
  check_value(v, twice(x), 1e-15, 'nested handle in a closure: value');
  check_jacobian(J, 2 * Jref, 1e-8, 'nested handle in a closure');
  prob.RHS.F = h;
  through_struct = @(y) prob.RHS.F(y) - y;
  [v, J] = msad_eval(through_struct, x, struct('mode', 'reverse'));
  check_value(v, through_struct(x), 1e-15, 'nested handle in a captured struct: value');
  check_jacobian(J, Jref - eye(3), 1e-8, 'nested handle in a captured struct');
  s = @(y) sum(h(y) .^ 2);
  for options = {struct('mode', 'forward'), struct('mode', 'reverse')}
    [v, g, H] = msad_eval(s, x, options{1});
    check_value(v, s(x), 1e-13, 'nested handle: objective');
    check_jacobian(g(:).', fd_jacobian(s, x), 1e-8, 'nested handle: gradient');
    check_jacobian(H, gradient_differences(s, x), 1e-6, 'nested handle: Hessian');
  end
  % Two handles from two calls of the parent hold two workspaces.
  h5 = make_nested_model(5);
  [v, J] = msad_eval(h5, x);
  check_value(v, h5(x), 1e-15, 'second workspace: value');
  check_jacobian(J, fd_jacobian(h5, x), 1e-8, 'second workspace');
  check_value(msad_eval(h, x), h(x), 1e-15, 'first workspace again');
  % A nested function reading nothing shared.
  check_value(msad_eval(nested_handle(), x), 2 * x, 0, 'nested handle without shared variables');
  % A handle made in the parent and passed to other functions (and arrayfun), calling a sibling.
  for options = {struct(), struct('mode', 'reverse')}
    [v, J] = msad_eval(@nested_passed, x, options{1});
    check_value(v, nested_passed(x), 1e-15, 'handle passed on by the parent: value');
    check_jacobian(J, fd_jacobian(@nested_passed, x), 1e-8, 'handle passed on by the parent');
  end
  s = @(y) sum(nested_passed(y) .^ 2);
  [~, g, H] = msad_eval(s, x);
  check_jacobian(g(:).', fd_jacobian(s, x), 1e-8, 'handle passed on by the parent: gradient');
  check_jacobian(H, gradient_differences(s, x), 1e-6, 'handle passed on by the parent: Hessian');
  expect_error(@() msad_eval(@nested_passed_stale, x), 'msad:unsupported', 'may change after the handle is made');
  check_shared_writes(x);
end

function check_shared_writes(x)
  % Writes of the parent's variables: each msad call counts once, whatever it computes (value, J in
  % each mode with sparsity detection, gradient and Hessian), and Octave sees the count msad wrote.
  by_msad = make_nested_step();
  by_octave = make_nested_step();
  for options = {struct(), struct('mode', 'forward', 'sparsity', 'none'), struct('mode', 'reverse'), struct('jacobian', 'sparse')}
    expected = by_octave(x);
    [v, J] = msad_eval(by_msad, x, options{1});
    check_value(v, expected, 0, 'counter: value');
    check_jacobian(J, (expected(1) / x(1)) * eye(3), 1e-15, 'counter: J = n I');
  end
  check_value(msad_eval(by_msad, x), by_octave(x), 0, 'counter: value only');
  check_value(by_msad(x), by_octave(x), 0, 'counter: Octave continues from the count msad wrote');
  objective = @(h) @(y) sum(h(y) .^ 2);
  [v, g, H] = msad_eval(objective(by_msad), x);
  n = by_octave(1);
  check_value(v, sum((n * x) .^ 2), 1e-12, 'counter in a closure: objective');
  check_jacobian(g(:).', 2 * n^2 * x.', 1e-12, 'counter in a closure: gradient');
  check_jacobian(H, 2 * n^2 * eye(3), 1e-12, 'counter in a closure: Hessian');
  check_value(msad_eval(by_msad, x), by_octave(x), 0, 'counter after the closure');
  % The older fixture: the count read after the write, p y^2 + count.
  counter = make_nested_counter(2);
  twin = make_nested_counter(2);
  [v, J] = msad_eval(counter, x, struct('mode', 'reverse'));
  check_value(v, twin(x), 0, 'make_nested_counter: value');
  check_jacobian(J, diag(4 * x), 1e-14, 'make_nested_counter: J');
  check_value(counter(x), twin(x), 0, 'make_nested_counter: the count msad wrote');
  % Two handles sharing one workspace, x-dependent writes (in a loop, through a sibling): within one
  % call the later read sees the earlier write; J through the shared total against central
  % differences of the same arithmetic with the state before the call passed in.
  [add, current] = make_nested_accumulator(3);
  [add_twin, current_twin] = make_nested_accumulator(3);
  both = @(a, c) @(y) a(y) + 2 * c(y);
  total = zeros(3, 1);
  calls = 0;
  for options = {struct(), struct('mode', 'reverse'), struct('mode', 'forward', 'sparsity', 'none')}
    expected = feval(both(add_twin, current_twin), x);
    [v, J] = msad_eval(both(add, current), x, options{1});
    check_value(v, expected, 1e-15, 'accumulator: value');
    pure = @(y) (total + y) .* y + 2 * ((total + y) .* y + calls + 1);
    check_value(v, pure(x), 1e-13, 'accumulator: value from the state before the call');
    check_jacobian(J, fd_jacobian(pure, x), 1e-8, 'accumulator: J through the shared total');
    total = total + x;
    calls = calls + 1;
  end
  check_value(current(x), current_twin(x), 0, 'accumulator: Octave sees the totals msad wrote');
  check_value(current(x), total .* x + calls, 1e-13, 'accumulator: the totals');
end
