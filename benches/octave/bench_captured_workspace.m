% BENCH_CAPTURED_WORKSPACE  Per-call cost of msad_eval on closures whose captured workspace holds a
% large sparse matrix (issue #21 item 9), at three sizes of the matrix: one level, a closure over a
% closure, and a problem struct holding handles (the +suite layout), against the same call with
% nothing large captured. The target is a cost independent of the captured data's size once the
% handle was seen, two levels <= 1.2x one level. The last row makes a new closure (same text, same A)
% before every call: a handle msad has not seen is read once (its workspace converted and compared),
% which is in proportion to the size of what it captured.
% Times are Octave's CPU time (cputime): on a shared machine, wall-clock times move with its load.
% Run from the repository root after `make build`:
%   octave-cli --norc --no-gui benches/octave/bench_captured_workspace.m
addpath(fullfile(pwd, 'matlab'));
x = ones(8, 1);
sizes = [256, 1024, 4096];
labels = {'nothing captured', 'one level', 'closure over closure', 'handle in a captured struct', ...
          'a new closure before every call'};
batches = 15;
per_batch = 100;
t = zeros(numel(sizes), numel(labels));
rand('seed', 1); randn('seed', 1);
for s = 1:numel(sizes)
  n = sizes(s);
  A = sprandn(n, n, 4 / n) + speye(n);
  one_level = @(y) y .^ 2 + A(1, 1);
  inner = @(y) y .^ 2 + A(1, 1);
  two_levels = @(y) inner(y) * 2;
  prob.RHS.F = @(t, y) y .^ 2 + A(1, 1) * t;
  through_struct = @(y) prob.RHS.F(1, y);
  forms = {@(y) y .^ 2 + 1, one_level, two_levels, through_struct, []};
  for k = 1:numel(forms) - 1
    [~, J] = msad_eval(forms{k}, x);  % prepared once
  end
  times = zeros(batches, numel(forms));
  for b = 1:batches
    for k = 1:numel(forms)
      f = forms{k};
      if isempty(f)
        start = cputime; for c = 1:per_batch, [~, J] = msad_eval(@(y) y .^ 2 + A(1, 1), x); end; times(b, k) = cputime - start;
      else
        start = cputime; for c = 1:per_batch, [~, J] = msad_eval(f, x); end; times(b, k) = cputime - start;
      end
    end
  end
  t(s, :) = median(times) / per_batch;
end
printf('per-call CPU time of [f, J] = msad_eval(...), median of %d batches of %d calls, A = n x n sparse, 5n nonzeros\n', batches, per_batch);
printf('| form | %s | two levels / one level |\n', strjoin(arrayfun(@(n) sprintf('n = %d', n), sizes, 'UniformOutput', false), ' | '));
for k = 1:numel(labels)
  cells = arrayfun(@(s) sprintf('%.1f us', t(s, k) * 1e6), 1:numel(sizes), 'UniformOutput', false);
  ratio = '';
  if k == 3 || k == 4
    ratio = strjoin(arrayfun(@(s) sprintf('%.2f', t(s, k) / t(s, 2)), 1:numel(sizes), 'UniformOutput', false), ', ');
  end
  printf('| %s | %s | %s |\n', labels{k}, strjoin(cells, ' | '), ratio);
end
