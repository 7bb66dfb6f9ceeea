% BENCH_FULL_THREADS  Full-mode (dense, all n directions) Jacobian of the Brusselator, N = 2000
% (n = 4000 unknowns): time(J+f by msad) / time(f in Octave), with 1 and 2 threads, same session.
% Run from the repository root after `make build`:  octave-cli benches/octave/bench_full_threads.m
addpath(fullfile(pwd, 'matlab'), fullfile(pwd, 'tests', 'octave', 'problems'));
N = 2000;
y = brusselator_init(N);

function t = median_time(fun, repeats)
  times = zeros(repeats, 1);
  for r = 1:repeats
    start = tic;
    fun();
    times(r) = toc(start);
  end
  t = median(times);
end

printf('Brusselator N = %d (n = %d), full Jacobian, medians\n', N, 2 * N);
printf('%-22s %12s %12s %12s %10s\n', 'rhs', 'f Octave', 'msad 1 thr', 'msad 2 thr', '1thr/2thr');
for name = {'brusselator_rhs_vec', 'brusselator_rhs'}
  fun = str2func(name{1});
  t_f = median_time(@() fun(y), 20);
  one = struct('jacobian', 'full', 'threads', 1);
  two = struct('jacobian', 'full', 'threads', 2);
  [~, J1] = msad_eval(fun, y, one);
  [~, J2] = msad_eval(fun, y, two);
  assert(isequal(J1, J2), 'thread counts disagree');
  t1 = median_time(@() nthargout(2, @msad_eval, fun, y, one), 5);
  t2 = median_time(@() nthargout(2, @msad_eval, fun, y, two), 5);
  printf('%-22s %10.2f ms %10.1f ms %10.1f ms %10.2f\n', name{1}, t_f * 1e3, t1 * 1e3, t2 * 1e3, t1 / t2);
  printf('%-22s %12s %11.0fx %11.0fx\n', '  ratio to f', '', t1 / t_f, t2 / t_f);
end
