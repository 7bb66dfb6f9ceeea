% Per-call cost of fmad's operations and whether their results are the
% same bits, run once per implementation by benches/octave/bench_fmad_engine.sh
% (which sets FMAD_ROOT, the matlab folder holding @fmad, FMAD_CONFIG, which
% of the operand sizes below, and FMAD_OUT, the .mat file the times and
% results go to). Operands: n elements with nd
% directions, full (nd = n or 10) or the sparse identity. CPU time per call:
% the best of 5 batches of about 20 ms each.
addpath(getenv('FMAD_ROOT'));
configs = {3, 3, 'full'; 100, 100, 'full'; 100, 10, 'full'; 1e4, 10, 'full'; 1e4, 1e4, 'sparse'};
ops = {
  'sin',          @(x, y) sin(x)
  'exp',          @(x, y) exp(x)
  'log',          @(x, y) log(x)
  'sqrt',         @(x, y) sqrt(x)
  'tanh',         @(x, y) tanh(x)
  'atan',         @(x, y) atan(x)
  'abs',          @(x, y) abs(x)
  'cbrt',         @(x, y) cbrt(x)
  'asinh',        @(x, y) asinh(x)
  'expm1',        @(x, y) expm1(x)
  'erf',          @(x, y) erf(x)
  'gammaln',      @(x, y) gammaln(x)
  'x + y',        @(x, y) x + y
  'x - y',        @(x, y) x - y
  'x .* y',       @(x, y) x .* y
  'x ./ y',       @(x, y) x ./ y
  'x .^ 2',       @(x, y) x .^ 2
  'x .^ y',       @(x, y) x .^ y
  'x + 1',        @(x, y) x + 1
  '2 * x',        @(x, y) 2 * x
  'atan2(x, y)',  @(x, y) atan2(x, y)
  'hypot(x, y)',  @(x, y) hypot(x, y)
  'mod(x, 0.3)',  @(x, y) mod(x, 0.3)
  '-x',           @(x, y) -x
  'x.'' * y',     @(x, y) x.' * y
  'sum(x)',       @(x, y) sum(x)
};
c = str2double(getenv('FMAD_CONFIG'));
times = nan(size(ops, 1), 1);
values = cell(size(times));
derivs = cell(size(times));
[n, nd, storage] = configs{c, :};
x0 = 0.5 + mod((1:n)' * 0.618, 1);
y0 = 0.7 + mod((1:n)' * 0.377, 1);
if strcmp(storage, 'sparse')
  seed = speye(n);
else
  seed = [eye(min(n, nd)); zeros(n - min(n, nd), nd)] + 0.25 * (mod((1:n)' + (1:nd), 3) == 0);
end
x = fmad(x0, seed);
y = fmad(y0, 2 * seed);
for k = 1:size(ops, 1)
  z = ops{k, 2}(x, y);
  values{k} = getvalue(z);
  derivs{k} = getinternalderivs(z);
  start = cputime;
  z = ops{k, 2}(x, y);
  reps = max(1, ceil(0.02 / max(cputime - start, 1e-6)));
  best = Inf;
  for batch = 1:5
    start = cputime;
    for r = 1:reps
      z = ops{k, 2}(x, y);
    end
    best = min(best, (cputime - start) / reps);
  end
  times(k) = best;
end
names = ops(:, 1);
config = configs(c, :);
save('-binary', getenv('FMAD_OUT'), 'times', 'values', 'derivs', 'names', 'config');
