function test_msad_handles()
% Function handles in differentiated code, and the builtins that call them (feval, cellfun,
% arrayfun, accumarray with a function) or hand values on (num2cell, deal): values equal to
% Octave's, Jacobians against the complex step (central differences where the code is not
% complex-safe), in forward mode, with sparsity detection, and in reverse mode for scalar results.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  x = [0.7; -1.3; 2.1; 0.4; -0.6];
  p = 1.5;
  g = @(t) t .^ 3 - p;  % a handle captured by the handles below
  complex_safe = {@handle_mix, ...
      @(x) arrayfun(@(v) v ^ 2 * p, x), ...
      @(x) arrayfun(@(a, b) a * b, x, flipud(x)), ...
      @(x) arrayfun(@(v) g(v) + x(2) * v, x), ...
      @(x) cellfun(@(c) sum(c .^ 2), {x, 2 * x, x(1:2)}), ...
      @(x) cellfun(@(c) c * x(end), num2cell(reshape(x(1:4), 2, 2))), ...
      @(x) cellfun(@(c) c{1} * 3, cellfun(@(c) {-c}, num2cell(x), 'UniformOutput', false)), ...
      @(x) feval(@(v) v .* x, x) + feval(g, x), ...
      @(x) accumarray([1; 3; 1; 2; 3], x), ...
      @(x) accumarray([1 1; 2 2; 1 1; 2 1; 1 2], x .^ 2, [2 3], [], -1), ...
      @(x) accumarray([1; 3; 1; 2; 3], x, [4 1], @(v) prod(v) + sum(v)), ...
      @(x) apply_twice(@(v) sin(v) .* x, x)};
  needs_differences = {@(x) cellfun(@max, {x, x .^ 2, -x}), ...
      @(x) accumarray([1; 3; 1; 2; 3], x, [], @max), ...
      @(x) arrayfun(@(v) max(v, p), x) + feval('abs', x)};
  % Several outputs through handles and deal; the second output of max through an anonymous function.
  needs_differences{end + 1} = @(x) multi_outputs(x);
  check_forms(complex_safe, needs_differences, x);

  % Reverse mode follows arrayfun, accumarray and handle calls (scalar results).
  scalar_forms = {@(x) sum(arrayfun(@(v) v ^ 2 * p, x)), @(x) sum(accumarray([1; 3; 1; 2; 3], x) .^ 2), ...
                  @(x) sum(accumarray([1; 3; 1; 2; 3], x, [], @(v) sum(v .^ 2))), @(x) feval(@(v) sum(exp(v)), x)};
  for k = 1:numel(scalar_forms)
    [~, grad] = msad_eval(scalar_forms{k}, x, struct('mode', 'reverse'));
    check_jacobian(grad(:).', cs_jacobian(scalar_forms{k}, x), 1e-12, ['reverse ' func2str(scalar_forms{k})]);
  end
  % Closures over x and cells are not taped: 'auto' then differentiates forward.
  closure = @(x) sum(arrayfun(@(v) v * x(1), x)) + sum(cellfun(@(c) c ^ 2, num2cell(x)));
  [~, grad] = msad_eval(closure, x);
  check_jacobian(grad(:).', cs_jacobian(closure, x), 1e-12, 'auto mode over closures');

  % func2str gives Octave's text; errors keep the raised identifier.
  assert(strcmp(msad_eval(@(x) func2str(@(v) v .^ 2 + x(1)), x), '@(v) v .^ 2 + x (1)'));
  expect_error(@(x) cellfun(@(c) error('handles:boom', 'boom %d', c), num2cell(x)), x, 'handles:boom');
  expect_error(@(x) str2func(char(97 + x(1) * 0)), x, 'msad:unsupported');
  expect_error(@(x) feval(char('sin' + 0 * x(1)), x), x, 'msad:unsupported');
  % A handle given as an argument of the differentiated function is followed (the code is
  % specialised for it: test_msad_calls has the other forms).
  [~, J] = msad_eval(@call_given, x, struct(), @sin);
  check_jacobian(J, diag(cos(x)), 1e-14, 'handle given as an argument');
end

function expect_error(f, x, identifier, varargin)
  try
    msad_eval(f, x, varargin{:});
  catch err
    assert(strcmp(err.identifier, identifier), '%s: identifier %s, expected %s (%s)', func2str(f), err.identifier, identifier, err.message);
    return;
  end
  error('test:noError', '%s: no error, expected %s', func2str(f), identifier);
end
