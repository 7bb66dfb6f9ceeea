function t = bench_median_time(fn, runs, min_seconds)
% Median over RUNS runs of the CPU time of one call fn() (process CPU time,
% as the CPU(J)/CPU(f) figures of the literature, and robust to other load
% on the machine); each run repeats the call until it has used MIN_SECONDS,
% so that fast functions are timed above the clock's resolution. One
% untimed warm-up call first.
  fn();
  start = cputime;
  fn();
  repeats = max(1, ceil(min_seconds / max(cputime - start, 1e-6)));
  times = zeros(runs, 1);
  for r = 1:runs
    start = cputime;
    for k = 1:repeats
      fn();
    end
    times(r) = (cputime - start) / repeats;
  end
  t = median(times);
end
