function test_msad_call_signals()
% A repeated call reads neither the path nor a captured value's contents
% when cheaper signals say they did not change; these are the changes those
% signals must still see. Names resolve as Octave resolves them (f compared
% with Octave's own call) after path(...) puts a folder first, after addpath
% moves a folder already on the path to the front, and after cd (with the
% rehash a script needs for Octave to see the new folder's files); a
% captured value changed in place (same size, one element or only its sign
% bit: -0 is not 0) gives the new result, for a full and a sparse value, in
% a closure and in a closure it calls.
  first = make_scratch('function f = signal_g(x)\n  f = 2 * x.^2;\nend\n');
  second = make_scratch('function f = signal_g(x)\n  f = 3 * x.^3;\nend\n');
  start = pwd();
  saved_path = path();
  cleanup = onCleanup(@() restore(start, saved_path, {first, second}));
  x = [0.5; -1.5; 2];

  addpath(first);
  check_named(x, diag(4 * x), 'first folder');
  path([second pathsep() path()]);
  check_named(x, diag(9 * x.^2), 'path() with the second folder first');
  addpath(first);
  check_named(x, diag(4 * x), 'addpath moving the first folder back to the front');
  rmpath(first);
  rmpath(second);
  cd(second);
  rehash();
  check_named(x, diag(9 * x.^2), 'cd into the second folder');
  cd(first);
  rehash();
  check_named(x, diag(4 * x), 'cd into the first folder');
  cd(start);

  % atan2(0, -1) = pi, atan2(-0, -1) = -pi.
  p = 0;
  for k = 1:3
    [f, J] = msad_eval(@(y) y + atan2(p, -1), x);
  end
  check_value(f, x + pi, 1e-15, 'captured p = 0: value');
  check_value(J, eye(3), 0, 'captured p = 0: Jacobian');
  p = -0;
  [f, J] = msad_eval(@(y) y + atan2(p, -1), x);
  check_value(f, x - pi, 1e-15, 'captured p = -0: value');
  check_value(J, eye(3), 0, 'captured p = -0: Jacobian');

  A = sprandn(200, 200, 0.05) + speye(200);
  B = full(A);
  for round = 1:3
    closure = @(y) A(1:3, 1:3) * y + B(2:4, 1:3) * y;
    outer = @(y) 2 * closure(y);
    for k = 1:3
      [f, J] = msad_eval(closure, x);
      [fo, Jo] = msad_eval(outer, x);
    end
    expected = full(A(1:3, 1:3)) + B(2:4, 1:3);
    label = sprintf('captured matrices, round %d', round);
    check_value(f, expected * x, 1e-14, [label ': value']);
    check_value(J, expected, 1e-14, [label ': Jacobian']);
    check_value(fo, 2 * expected * x, 1e-14, [label ': value through a closure']);
    check_value(Jo, 2 * expected, 1e-14, [label ': Jacobian through a closure']);
    A(2, 3) = A(2, 3) + round;
    B(3, 2) = B(3, 2) - round;
  end

  % msad_eval stays reachable through the current folder; the helpers do not.
  addpath(first);
  cd(fileparts(which('msad_eval')));
  for k = 1:3
    msad_eval(@signal_g, x);
  end
  restoredefaultpath();
  msad_outcome = outcome(@() msad_eval(@signal_g, x));
  octave_outcome = outcome(@() signal_g(x));
  cd(start);
  path(saved_path);
  if ~isequal(msad_outcome, octave_outcome)
    error('test:signal', 'after restoredefaultpath: msad gives %s, Octave %s', disp(msad_outcome), disp(octave_outcome));
  end
end

function check_named(x, J_expected, what)
  for k = 1:3
    [f, J] = msad_eval(@signal_g, x);
  end
  check_value(f, signal_g(x), 1e-15, [what ': value as Octave evaluates it']);
  check_value(J, J_expected, 1e-14, [what ': Jacobian']);
end

% The value, or the identifier of the error.
function result = outcome(call)
  try
    result = call();
  catch failure
    result = failure.identifier;
  end
end

function dir = make_scratch(text)
  dir = tempname();
  mkdir(dir);
  fid = fopen(fullfile(dir, 'signal_g.m'), 'w');
  fprintf(fid, text);
  fclose(fid);
end

function restore(start, saved_path, dirs)
  cd(start);
  path(saved_path);
  for k = 1:numel(dirs)
    if any(strcmp(strsplit(path(), pathsep()), dirs{k}))
      rmpath(dirs{k});
    end
    confirm_recursive_rmdir(false, 'local');
    rmdir(dirs{k}, 's');
  end
end
