function test_msad_path()
% Names resolve as Octave resolves them, also after the path or the current
% folder changed between calls: addpath of a folder with another path_g.m
% gives its f and J (called directly or from an anonymous function); rmpath
% of it gives the first again, rmpath of the last folder Octave's
% undefined-function error; cd into a folder with its own path_g.m uses that
% (once Octave sees it: at its next prompt, or after rehash in a script).
  first = make_scratch('function f = path_g(x)\n  f = 2 * x.^2;\nend\n');
  second = make_scratch('function f = path_g(x)\n  f = 3 * x.^3;\nend\n');
  here = make_scratch('function f = path_g(x)\n  f = 5 * sin(x);\nend\n');
  start = pwd();
  cleanup = onCleanup(@() restore(start, {first, second, here}));
  x = [0.5; -1.5; 2];
  through_closure = @(y) path_g(y) + 1;

  addpath(first);
  for k = 1:3
    [f, J] = msad_eval(@path_g, x);
    [fc, Jc] = msad_eval(through_closure, x);
  end
  check_both(f, J, fc, Jc, 2 * x.^2, diag(4 * x), x, 'first folder');

  addpath(second);
  [f, J] = msad_eval(@path_g, x);
  [fc, Jc] = msad_eval(through_closure, x);
  check_both(f, J, fc, Jc, 3 * x.^3, diag(9 * x.^2), x, 'second folder put first');

  rmpath(second);
  [f, J] = msad_eval(@path_g, x);
  [fc, Jc] = msad_eval(through_closure, x);
  check_both(f, J, fc, Jc, 2 * x.^2, diag(4 * x), x, 'second folder removed');

  % Octave sees another folder's files at its next prompt, or, in a script, after rehash.
  cd(here);
  rehash();
  [f, J] = msad_eval(@path_g, x);
  [fc, Jc] = msad_eval(through_closure, x);
  check_both(f, J, fc, Jc, 5 * sin(x), diag(5 * cos(x)), x, 'current folder');
  cd(start);

  rmpath(first);
  expect_error(@() msad_eval(@path_g, x), 'Octave:undefined-function', 'path_g');
  expect_error(@() msad_eval(through_closure, x), '', 'path_g');
  addpath(first);
  [f, J] = msad_eval(@path_g, x);
  check_value(J, diag(4 * x), 1e-15, 'first folder again');
end

function check_both(f, J, fc, Jc, f_expected, J_expected, x, what)
  check_value(f, path_g(x), 1e-15, [what ': value as Octave evaluates it']);
  check_value(f, f_expected, 1e-14, [what ': value']);
  check_value(J, J_expected, 1e-14, [what ': Jacobian']);
  check_value(fc, f_expected + 1, 1e-14, [what ': value through a closure']);
  check_value(Jc, J_expected, 1e-14, [what ': Jacobian through a closure']);
end

function dir = make_scratch(text)
  dir = tempname();
  mkdir(dir);
  fid = fopen(fullfile(dir, 'path_g.m'), 'w');
  fprintf(fid, text);
  fclose(fid);
end

function restore(start, dirs)
  cd(start);
  for k = 1:numel(dirs)
    if any(strcmp(strsplit(path(), pathsep()), dirs{k}))
      rmpath(dirs{k});
    end
    confirm_recursive_rmdir(false, 'local');
    rmdir(dirs{k}, 's');
  end
end
