function test_msad_nested()
% Nested functions share the parent's workspace: reads and writes of shared variables, arguments
% local to the nested function (the parent's variables of the same names untouched), early return.
% Values equal Octave's; J against the complex step in forward, reverse and sparse mode.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  x = [0.7; -1.3; 2.1; 0.4];
  value = nested_shared(x);
  Jref = cs_jacobian(@nested_shared, x);
  for options = {struct(), struct('mode', 'forward', 'sparsity', 'none'), struct('mode', 'reverse'), struct('jacobian', 'sparse')}
    [v, J] = msad_eval(@nested_shared, x, options{1});
    assert(isequal(size(v), size(value)) && max(abs(v - value)) <= 1e-14 * max(abs(value)), 'nested: value');
    check_jacobian(J, Jref, 1e-12, 'nested');
  end
  s = @(y) sum(nested_shared(y) .^ 2);
  [~, g, H] = msad_eval(s, x);
  check_jacobian(g(:).', cs_jacobian(s, x), 1e-12, 'nested gradient');
  check_jacobian(H, gradient_differences(s, x), 1e-6, 'nested Hessian');
  % A handle to a nested function (its workspace holds the handle itself) is read without recursion
  % (more in test_msad_nested_handles).
  [v, J] = msad_eval(nested_handle(), x);
  check_value(v, 2 * x, 0, 'nested handle');
  check_jacobian(J, 2 * eye(numel(x)), 0, 'nested handle');
end
