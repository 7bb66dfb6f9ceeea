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
calls = 1e4;

% Median over batches of per-call times, so a burst of load on the machine does not decide the figure.
% The loops are written out (no helper function per call) so only the measured call is timed.
batches = 20;
per_batch = calls / batches;
times = zeros(batches, 6);
msad_eval(@small3, x);
[~, J] = msad_eval(@small3, x);
% An anonymous handle is decoded with functions() on every call (its captured values may change).
[~, J] = msad_eval(@(y) small3(y), x);
for b = 1:batches
  start = tic; for k = 1:per_batch, f = small3(x); end; times(b, 1) = toc(start);
  start = tic; for k = 1:per_batch, f = msad_eval('small3', x); end; times(b, 2) = toc(start);
  start = tic; for k = 1:per_batch, [f, J] = msad_eval('small3', x); end; times(b, 3) = toc(start);
  start = tic; for k = 1:per_batch, f = msad_eval(@small3, x); end; times(b, 4) = toc(start);
  start = tic; for k = 1:per_batch, [f, J] = msad_eval(@small3, x); end; times(b, 5) = toc(start);
  start = tic; for k = 1:per_batch, [f, J] = msad_eval(@(y) small3(y), x); end; times(b, 6) = toc(start);
end
% The median is the figure; the fastest batch shows the cost without other load on the machine.
t = median(times) / per_batch;
fastest = min(times) / per_batch;
labels = {'small3(x) in Octave', 'f = msad_eval(''small3'', x)', '[f, J] = msad_eval(''small3'', x)', ...
          'f = msad_eval(@small3, x)', '[f, J] = msad_eval(@small3, x)', '[f, J] = msad_eval(@(y) small3(y), x)'};
printf('per-call time, median (fastest) of %d batches of %d calls\n', batches, per_batch);
for k = 1:numel(t)
  printf('  %-40s %8.2f us (%6.2f us)  %.2fx Octave\n', labels{k}, t(k) * 1e6, fastest(k) * 1e6, t(k) / t(1));
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
