% BENCH_FULL_THREADS  Full Jacobian of the Brusselator, N = 2000 (n = 4000 unknowns):
% time(J+f by msad) / time(f in Octave), with 1 and 2 threads, same session, for
%   - jacobian 'full' (J stored full; msad still detects the pattern and evaluates compressed), and
%   - jacobian 'full' with sparsity 'none' (all n directions propagated dense: the full-mode path).
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

printf('Brusselator N = %d (n = %d), full J, medians\n', N, 2 * N);
printf('%-22s %-16s %10s %12s %12s %10s\n', 'rhs', 'sparsity', 'f Octave', 'msad 1 thr', 'msad 2 thr', '1thr/2thr');
for name = {'brusselator_rhs_vec', 'brusselator_rhs'}
  fun = str2func(name{1});
  t_f = median_time(@() fun(y), 20);
  for sparsity = {'auto', 'none'}
    one = struct('jacobian', 'full', 'sparsity', sparsity{1}, 'threads', 1);
    two = setfield(one, 'threads', 2);
    [~, J1] = msad_eval(fun, y, one);
    [~, J2] = msad_eval(fun, y, two);
    assert(isequal(J1, J2), 'thread counts disagree');
    repeats = 5 + 15 * strcmp(sparsity{1}, 'auto');
    t1 = median_time(@() nthargout(2, @msad_eval, fun, y, one), repeats);
    t2 = median_time(@() nthargout(2, @msad_eval, fun, y, two), repeats);
    printf('%-22s %-16s %7.2f ms %9.1f ms %9.1f ms %10.2f\n', name{1}, sparsity{1}, t_f * 1e3, t1 * 1e3, ...
           t2 * 1e3, t1 / t2);
    printf('%-22s %-16s %10s %11.1fx %11.1fx\n', '', '  ratio to f', '', t1 / t_f, t2 / t_f);
  end
end
