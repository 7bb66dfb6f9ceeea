function test_msad_cache()
% msad_eval's cache in Octave, where repeated calls skip most of the work: an
% edit of the function's file or of a file it calls, made right before the
% next call, gives the new result; so does a change of a captured variable;
% handles and names of the same function share the prepared code; `clear
% msad_eval` starts afresh.
  scratch = tempname();
  mkdir(scratch);
  addpath(scratch);
  cleanup = onCleanup(@() remove_scratch(scratch));
  x = [0.5; -1.5; 2];

  write_file(scratch, 'cache_outer', 'function f = cache_outer(x)\n  f = cache_inner(x) + [1; 2; 3];\nend\n');
  write_file(scratch, 'cache_inner', 'function y = cache_inner(x)\n  y = 2 * x.^2;\nend\n');
  for k = 1:3
    [f, J] = msad_eval(@cache_outer, x);
  end
  check_value(f, 2 * x.^2 + [1; 2; 3], 1e-15, 'first version: value');
  check_value(J, diag(4 * x), 1e-15, 'first version: Jacobian');

  % Same length as before, so only the contents (and the modification time) differ.
  write_file(scratch, 'cache_outer', 'function f = cache_outer(x)\n  f = cache_inner(x) + [4; 5; 6];\nend\n');
  [f, J] = msad_eval(@cache_outer, x);
  check_value(f, 2 * x.^2 + [4; 5; 6], 1e-15, 'edited function: value');
  [f, J] = msad_eval('cache_outer', x);
  check_value(f, 2 * x.^2 + [4; 5; 6], 1e-15, 'edited function by name: value');

  write_file(scratch, 'cache_inner', 'function y = cache_inner(x)\n  y = 3 * x.^3;\nend\n');
  [f, J] = msad_eval(@cache_outer, x);
  check_value(f, 3 * x.^3 + [4; 5; 6], 1e-15, 'edited called file: value');
  check_value(J, diag(9 * x.^2), 1e-15, 'edited called file: Jacobian');

  p = 2;
  g = @(y) p * y.^2;
  [f, J] = msad_eval(g, x);
  check_value(J, diag(2 * p * x), 1e-15, 'captured p = 2');
  p = 5;
  g = @(y) p * y.^2;
  [f, J] = msad_eval(g, x);
  check_value(f, p * x.^2, 1e-15, 'captured p = 5: value');
  check_value(J, diag(2 * p * x), 1e-15, 'captured p = 5: Jacobian');

  clear msad_eval
  [f, J] = msad_eval(@cache_outer, x);
  check_value(f, 3 * x.^3 + [4; 5; 6], 1e-15, 'after clear msad_eval: value');
end

function write_file(dir, name, text)
  fid = fopen(fullfile(dir, [name '.m']), 'w');
  fprintf(fid, text);
  fclose(fid);
end
