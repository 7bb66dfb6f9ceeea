% BENCH_CALL_OVERHEAD  Per-call cost of msad_eval once the function is prepared, and the first-call
% preparation time of a generated 300-line function. Run from the repository root after `make build`:
%   octave-cli --norc --no-gui benches/octave/bench_call_overhead.m
addpath(fullfile(pwd, 'matlab'));
scratch = tempname();
mkdir(scratch);
addpath(scratch);
cleanup = onCleanup(@() confirm_recursive_rmdir(false) || rmdir(scratch, 's'));

% A 3-element function, as small as a user's residual gets.
fid = fopen(fullfile(scratch, 'small3.m'), 'w');
fprintf(fid, 'function f = small3(x)\n  f = [x(1)*x(2); sin(x(3)); x(1) + x(3)^2];\nend\n');
fclose(fid);
x = [1; 2; 3];
% MSAD_BENCH_CALLS: calls per case (default 1e4), a multiple of 20.
calls = str2double(getenv('MSAD_BENCH_CALLS'));
if isnan(calls)
  calls = 1e4;
end

% Closures over a scalar and over a 4096 x 4096 sparse matrix (one level, and a closure calling it):
% a call reads their captured values (compared with the last call's, hashed only when changed).
p = 2.5;
A = sprand(4096, 4096, 1e-3) + speye(4096);
over_scalar = @(y) p * small3(y);
over_sparse = @(y) small3(y) * size(A, 1);
two_levels = @(y) 2 * over_sparse(y);
% MSAD_BENCH_BASELINE names another build of msad_eval on the path (e.g. msad_eval_main, a copy of
% main's msad_eval.mex): timed in the same batches, side by side.
baseline = getenv('MSAD_BENCH_BASELINE');
evaluators = {@msad_eval};
if ~isempty(baseline)
  evaluators{end + 1} = str2func(baseline);
end
cases = {'small3(x) in Octave', [], []; 'f = msad_eval(''small3'', x)', 'small3', 1; ...
         '[f, J] = msad_eval(''small3'', x)', 'small3', 2; 'f = msad_eval(@small3, x)', @small3, 1; ...
         '[f, J] = msad_eval(@small3, x)', @small3, 2; '[f, J] = msad_eval(@(y) small3(y), x)', @(y) small3(y), 2; ...
         '[f, J], closure over a scalar', over_scalar, 2; '[f, J], closure over 4096^2 sparse', over_sparse, 2; ...
         '[f, J], two levels over 4096^2 sparse', two_levels, 2};
for e = 1:numel(evaluators)
  for c = 2:size(cases, 1)
    [~, J] = evaluators{e}(cases{c, 2}, x);
  end
end

% Median over batches of per-call times, so a burst of load on the machine does not decide the figure.
% The loops are written out (no helper function per call) so only the measured call is timed.
batches = 20;
per_batch = calls / batches;
times = zeros(batches, size(cases, 1), numel(evaluators));
for b = 1:batches
  start = tic; for k = 1:per_batch, f = small3(x); end; times(b, 1, :) = toc(start);
  for e = 1:numel(evaluators)
    evaluate = evaluators{e};
    for c = 2:size(cases, 1)
      fun = cases{c, 2};
      if cases{c, 3} == 1
        start = tic; for k = 1:per_batch, f = evaluate(fun, x); end; times(b, c, e) = toc(start);
      else
        start = tic; for k = 1:per_batch, [f, J] = evaluate(fun, x); end; times(b, c, e) = toc(start);
      end
    end
  end
end
% The median is the figure; the fastest batch shows the cost without other load on the machine.
t = median(times) / per_batch;
fastest = min(times) / per_batch;
printf('per-call time, median (fastest) of %d batches of %d calls\n', batches, per_batch);
for e = 1:numel(evaluators)
  printf('%s\n', func2str(evaluators{e}));
  for c = 1:size(cases, 1)
    printf('  %-42s %8.2f us (%7.2f us)  %.2fx Octave\n', cases{c, 1}, t(1, c, e) * 1e6, fastest(1, c, e) * 1e6, ...
           t(1, c, e) / t(1, 1, e));
  end
end

% A generated 300-line function: a chain of scalar and vector statements.
lines = 300;
fid = fopen(fullfile(scratch, 'long300.m'), 'w');
fprintf(fid, 'function f = long300(x)\n  a = x;\n');
for k = 1:lines - 3
  switch mod(k, 4)
    case 0, fprintf(fid, '  a = a + sin(a) * %g;\n', k / lines);
    case 1, fprintf(fid, '  b%d = a(1) * a(end) - %g;\n', k, k);
    case 2, fprintf(fid, '  a(2) = a(2) + b%d^2 / %d;\n', k - 1, k);
    case 3, fprintf(fid, '  a = a .* exp(-a / %d);\n', k);
  end
end
fprintf(fid, '  f = a;\nend\n');
fclose(fid);
y = linspace(0.1, 1, 10)';
start = tic;
[f, J] = msad_eval(@long300, y);
first = toc(start);
start = tic;
[f, J] = msad_eval(@long300, y);
second = toc(start);
printf('300-line function: first call (parse, lower, analyse, detect) %.1f ms, next call %.2f ms\n', ...
       first * 1e3, second * 1e3);
