function test_msad_nested_handles()
% Handles to nested functions (issue #21 item 3), returned by their parent: msad reads the parent's
% workspace the handle holds (which holds the handle itself: read without recursion), as a handle
% passed to msad_eval and as one captured by an anonymous function; and made in the parent and passed
% to other functions inside the differentiated code. Values equal Octave's; J and H
% against central differences in forward, reverse and sparse mode. A nested function that writes a
% shared variable (Octave keeps the write in the handle's workspace) is msad:unsupported.
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
  % Writes of the parent's variables stay Octave's to make.
  counter = make_nested_counter(2);
  expect_error(@() msad_eval(counter, x), 'msad:unsupported', 'assigns ''count''');
  check_value(counter(x), 2 * x .^ 2 + 1, 0, 'the counter untouched by msad');
end
