% BENCH_FIRST_CALL  First-call time (sparsity detection included) of a loop whose body branches on x
% (issue #25 item 3: linear in n, <= 0.2 s at n = 20000). Run from the repository root after
% `make build`:
%   octave-cli --norc --no-gui benches/octave/bench_first_call.m
% MSAD_BENCH_BASELINE names another build of msad_eval on the path (e.g. msad_eval_main, a copy of
% main's msad_eval.mex): timed in the same rounds, side by side.
addpath(fullfile(pwd, 'matlab'));
scratch = tempname();
mkdir(scratch);
addpath(scratch);
cleanup = onCleanup(@() confirm_recursive_rmdir(false) || rmdir(scratch, 's'));
fid = fopen(fullfile(scratch, 'branchy_loop.m'), 'w');
fprintf(fid, ['function f = branchy_loop(y)\n  n = numel(y);\n  f = zeros(n, 1);\n  for k = 1:n\n' ...
              '    if y(k) > 0\n      f(k) = y(k)^2 + 1;\n    else\n      f(k) = sin(y(k));\n    end\n' ...
              '  end\nend\n']);
fclose(fid);
names = {'msad_eval'};
baseline = getenv('MSAD_BENCH_BASELINE');
if ~isempty(baseline)
  names{end + 1} = baseline;
end
rounds = 3;
printf('| n | %s | J checked |\n|---|%s---|\n', strjoin(cellfun(@(s) [s ' first call (s)'], names, 'UniformOutput', false), ' | '), ...
       repmat('---|', 1, numel(names)));
for n = [5000 10000 20000]
  y = 2 * rand(n, 1) - 1;
  expected = spdiags((y > 0) .* 2 .* y + (y <= 0) .* cos(y), 0, n, n);
  times = zeros(rounds, numel(names));
  worst = 0;
  for r = 1:rounds
    for e = 1:numel(names)
      clear(names{e});
      evaluate = str2func(names{e});
      start = cputime();
      [~, J] = evaluate(@branchy_loop, y);
      times(r, e) = cputime() - start;
      worst = max(worst, full(max(max(abs(J - expected)))));
    end
  end
  printf('| %d | %s | max error %.1e |\n', n, strjoin(arrayfun(@(t) sprintf('%.3f', t), median(times, 1), 'UniformOutput', false), ' | '), worst);
end
