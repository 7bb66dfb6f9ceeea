function t = bench_median_time(fn, runs, min_seconds)
% Median over RUNS runs of the wall time of one call fn(); each run repeats
% the call until it has lasted MIN_SECONDS, so that fast functions are
% timed above the clock's resolution. One untimed warm-up call first.
  fn();
  tic;
  fn();
  repeats = max(1, ceil(min_seconds / max(toc, 1e-6)));
  times = zeros(runs, 1);
  for r = 1:runs
    tic;
    for k = 1:repeats
      fn();
    end
    times(r) = toc / repeats;
  end
  t = median(times);
end
