function test_msad_calls()
% Every way Octave code names and calls a function reaches msad's derivatives: package functions
% (pkg.f, pkg.sub.f, @pkg.f, import), handles held in captured struct fields and cells, passed as
% arguments (also inside a struct or a cell), returned by functions, made by str2func or called by
% feval from a name in a variable, also a name handed on from one function to another. Values equal Octave's; J against the complex step in forward and reverse
% mode; Hessians of a scalar form against central differences of msad's own gradient. A handle that
% changes between calls gives its own derivatives (never a plan prepared for another handle).
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  x = [0.7; -1.3; 2.1; 0.4];
  p = 1.5;
  prob.RHS.F = @(t, y) calls.scale(t, y, p);
  prob.RHS.name = 'calls.scale';
  prob.fun = 'sin';
  handles = {@(y) y .^ 3, @(y) exp(y)};
  name = 'sin';
  maker = calls_maker(2);
  forms = {
      'package functions in a file', @calls_package, {}
      'package function in an anonymous function', @(y) calls.scale(2, y, p) + calls.inner.wave(y), {}
      'handle to a package function', @calls.inner.wave, {}
      'handle in a captured struct field', @(y) prob.RHS.F(0, y), {}
      'feval of a handle in a struct field', @(y) feval(prob.RHS.F, 1, y), {}
      'handle in a captured cell', @(y) handles{1}(y) + handles{2}(y), {}
      'handle returned by a function', @(y) maker(y), {}
      'handle returned inside the code', @(y) feval(calls_maker(3), y), {}
      'str2func of a captured name', @(y) feval(str2func(name), y) .* y, {}
      'feval of a captured name', @(y) feval(name, y) + feval(prob.RHS.name, 0, y, 2), {}
      'handle and struct of handles as arguments', @calls_given, {@(v) v .^ 2, struct('g', @(s) s * 3)}
      'names as arguments', @calls.by_name, {}
      'a handle on the path not taken', @calls_untaken, {@cos}
      'a name on the path taken', @calls_untaken, {'sin'}
      'a captured name handed on', @(y) calls_untaken(y, name), {}
      'a literal name handed on', @(y) calls.by_name('cos', y), {}
      'a name in a captured struct handed on', @(y) calls.hand_on(prob.fun, y), {}
      'a name given as an argument, handed on two levels down', @(y, fun) calls.hand_on(fun, y), {'exp'}
      'a handle in a cell given as an argument', @loop_over_handles, {{@sin, @(v) v .^ 2, @exp}}
      'a name given as an argument for feval', @(y, fun) feval(fun, y) .* y, {'cos'}};
  for k = 1:rows(forms)
    [label, f, extra] = forms{k, :};
    if strcmp(label, 'names as arguments')
      % by_name(name, x): the name is an argument msad's code is specialised for, x the second.
      [v, J] = msad_eval(f, 'cos', struct('wrt', 2), x);
      reference = @(y) calls.by_name('cos', y);
      assert(isequal(v, reference(x)), '%s: value', label);
      check_jacobian(J, cs_jacobian(reference, x), 1e-12, label);
      continue;
    end
    check_form(label, f, x, extra);
  end

  % import (MATLAB's; Octave 7 does not implement it): the same function through full names.
  [v, J] = msad_eval(@calls_import, x);
  reference = @(y) calls.scale(1, y, 3) - calls.inner.wave(y);
  assert(max(abs(v - reference(x))) <= 1e-14 * max(abs(v)), 'import: value');
  check_jacobian(J, cs_jacobian(reference, x), 1e-12, 'import');

  % A different handle (or name) in the same place is another function: its own derivatives.
  for power = 2:4
    prob.RHS.F = @(t, y) y .^ power;
    closure = @(y) prob.RHS.F(0, y);
    [~, J] = msad_eval(closure, x);
    check_jacobian(J, diag(power * x .^ (power - 1)), 1e-13, sprintf('changed captured handle, power %d', power));
  end
  for given = {@sin, @cos, @(v) v .^ 2}
    [~, J] = msad_eval(@calls_given, x, struct(), given{1}, struct('g', @(s) 0 * s));
    check_jacobian(J, cs_jacobian(given{1}, x), 1e-12, ['changed argument handle ' func2str(given{1})]);
  end
  for given = {'sin', 'exp', 'cos'}
    [~, J] = msad_eval(@calls_untaken, x, struct(), given{1});
    check_jacobian(J, cs_jacobian(@(y) calls_untaken(y, given{1}), x), 1e-12, ['changed name ' given{1}]);
  end

  % A name handed on from the closure to the functions it calls: another name is another function.
  for given = {'sin', 'exp', 'cos'}
    handed_on = given{1};
    closure = @(y) calls.hand_on(handed_on, y);
    [~, J] = msad_eval(closure, x);
    check_jacobian(J, cs_jacobian(closure, x), 1e-12, ['changed name handed on ' handed_on]);
  end

  % Names that are computed from x, or unknown, are clear errors; an unknown package function is
  % Octave's undefined-function error.
  expect_error(@() msad_eval(@(y) feval(str2func(char(97 + 0 * y(1))), y), x), 'msad:unsupported', 'str2func');
  expect_error(@() msad_eval(@(y) calls.missing(y), x), 'Octave:undefined-function', 'undefined');
  % An error inside a package function names the call chain back to the user's line.
  expect_error(@() msad_eval(@(y) calls.scale(0, y, [1 2 3]), x), 'Octave:nonconformant-args', 'scale.m:3:');
  expect_error(@() msad_eval(@(y) calls.scale(0, y, [1 2 3]), x), 'Octave:nonconformant-args', 'called from @anonymous at <anonymous>:1:');
end

function check_form(label, f, x, extra)
  value = f(x, extra{:});
  g = @(y) f(y, extra{:});
  [v, J] = msad_eval(f, x, struct(), extra{:});
  assert(isequal(size(v), size(value)) && max(abs(v(:) - value(:))) <= 1e-14 * max(1, max(abs(value(:)))), '%s: value', label);
  Jcs = cs_jacobian(g, x);
  check_jacobian(J, Jcs, 1e-12, [label ' (auto)']);
  [~, J] = msad_eval(f, x, struct('mode', 'forward', 'sparsity', 'none'), extra{:});
  check_jacobian(J, Jcs, 1e-12, [label ' (forward)']);
  [~, J] = msad_eval(f, x, struct('mode', 'reverse'), extra{:});
  check_jacobian(J, Jcs, 1e-12, [label ' (reverse)']);
  % A scalar form of the same function: gradient and Hessian. (A name handed on inside the code,
  % from this closure to f, is text computed at run time for msad: see README, not supported yet.)
  if any(cellfun(@ischar, extra))
    return;
  end
  s = @(y) sum(f(y, extra{:}) .^ 2);
  [sv, grad, H] = msad_eval(s, x);
  check_jacobian(grad(:).', cs_jacobian(s, x), 1e-12, [label ' (gradient)']);
  assert(abs(sv - s(x)) <= 1e-13 * max(1, abs(sv)), '%s: scalar value', label);
  Hfd = gradient_differences(s, x);
  check_jacobian(H, Hfd, 1e-6, [label ' (Hessian)']);
end
