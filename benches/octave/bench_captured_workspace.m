% BENCH_CAPTURED_WORKSPACE  Per-call cost of msad_eval on closures whose captured workspace holds a
% large matrix (issue #21 item 9): one level, a closure over a closure, and a problem struct holding
% handles (the +suite layout), each against the same call with nothing large captured. The target is a
% cost independent of the captured data's size once the handle was seen (<= 1.2x one level).
% Run from the repository root after `make build`:
%   octave-cli --norc --no-gui benches/octave/bench_captured_workspace.m
addpath(fullfile(pwd, 'matlab'));
n = 4096;
A = sprandn(n, n, 1e-3) + speye(n);
x = ones(8, 1);
small = @(y) y .^ 2 + A(1, 1);
inner = @(y) y .^ 2 + A(1, 1);
nested = @(y) inner(y) * 2;
prob.RHS.F = @(t, y) y .^ 2 + A(1, 1) * t;
through_struct = @(y) prob.RHS.F(1, y);
forms = {@(y) y .^ 2 + 1, small, nested, through_struct};
labels = {'nothing captured', 'one level, 4096^2 sparse', 'closure over closure', 'handle in a captured struct'};
batches = 10;
per_batch = 50;
times = zeros(batches, numel(forms));
for k = 1:numel(forms)
  [~, J] = msad_eval(forms{k}, x);  % prepared once
end
for b = 1:batches
  for k = 1:numel(forms)
    f = forms{k};
    start = tic; for c = 1:per_batch, [~, J] = msad_eval(f, x); end; times(b, k) = toc(start);
  end
end
t = median(times) / per_batch;
printf('per-call time of [f, J] = msad_eval(...), median of %d batches of %d calls (nnz(A) = %d)\n', batches, per_batch, nnz(A));
for k = 1:numel(t)
  printf('  %-30s %9.1f us  %.2fx one level\n', labels{k}, t(k) * 1e6, t(k) / t(2));
end
