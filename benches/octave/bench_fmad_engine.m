% Per-call cost of fmad's operations with two implementations of @fmad side
% by side in one Octave process, and their results, run by
% benches/octave/bench_fmad_engine.sh, which sets FMAD_ROOTS (the matlab
% folders holding each @fmad, separated by pathsep), FMAD_CONFIG (which of
% the operand sizes below) and FMAD_OUT (the .mat file the times and results
% go to). Each operation runs with one implementation, then the other (the
% path switched in between), so that both see the same load. Operands:
% columns x, y of n elements with nd directions, full (nd = n or 10) or the
% sparse identity; X (r x n/r) and Y (n/r x r) hold the same elements, A is
% a constant r x r matrix. CPU time per call: the best of 5 batches of about
% 20 ms each (of 2 single calls for an operation over 0.1 s). Whether the two
% give the same bits is decided here (the results are not kept: with the
% sparse identity some are hundreds of MB).
roots = strsplit(getenv('FMAD_ROOTS'), pathsep);
configs = {3, 3, 'full'; 100, 100, 'full'; 100, 10, 'full'; 1e4, 10, 'full'; 1e4, 1e4, 'sparse'};
c = str2double(getenv('FMAD_CONFIG'));
[n, nd, storage] = configs{c, :};
addpath(roots{1});
x0 = 0.5 + mod((1:n)' * 0.618, 1);
y0 = 0.7 + mod((1:n)' * 0.377, 1);
if strcmp(storage, 'sparse')
  seed = speye(n);
else
  seed = [eye(min(n, nd)); zeros(n - min(n, nd), nd)] + 0.25 * (mod((1:n)' + (1:nd), 3) == 0);
end
x = fmad(x0, seed);
y = fmad(y0, 2 * seed);
r = round(sqrt(n));
if r * r ~= n
  r = n;
end
X = fmad(reshape(x0, r, []), seed);
Y = fmad(reshape(y0, [], r), 2 * seed);
A = 2 * eye(r) + mod((1:r)' * (1:r), 7) / (7 * r);
odd = substruct('()', {1:2:n});
y_odd = fmad(y0(1:2:n), 2 * seed(1:2:n, :));
rmpath(roots{1});
ops = {
  'sin',          @() sin(x)
  'exp',          @() exp(x)
  'log',          @() log(x)
  'sqrt',         @() sqrt(x)
  'tanh',         @() tanh(x)
  'atan',         @() atan(x)
  'abs',          @() abs(x)
  'cbrt',         @() cbrt(x)
  'asinh',        @() asinh(x)
  'expm1',        @() expm1(x)
  'erf',          @() erf(x)
  'gammaln',      @() gammaln(x)
  'x + y',        @() x + y
  'x - y',        @() x - y
  'x .* y',       @() x .* y
  'x ./ y',       @() x ./ y
  'x .^ 2',       @() x .^ 2
  'x .^ y',       @() x .^ y
  'x + 1',        @() x + 1
  '2 * x',        @() 2 * x
  'atan2(x, y)',  @() atan2(x, y)
  'hypot(x, y)',  @() hypot(x, y)
  'mod(x, 0.3)',  @() mod(x, 0.3)
  '-x',           @() -x
  'x.'' * y',     @() x.' * y
  'X * Y',        @() X * Y
  'A * X',        @() A * X
  'A \ X',        @() A \ X
  'Y / A',        @() Y / A
  'sum(x)',       @() sum(x)
  'sum(X, 2)',    @() sum(X, 2)
  'prod(x)',      @() prod(x)
  'cumsum(x)',    @() cumsum(x)
  'cumprod(x)',   @() cumprod(x)
  'max(x)',       @() max(x)
  'min(X, [], 2)', @() min(X, [], 2)
  'max(x, y)',    @() max(x, y)
  'dot(x, y)',    @() dot(x, y)
  'norm(x)',      @() norm(x)
  'norm(X)',      @() norm(X)
  'x(2:n)',       @() x(2:n)
  'X(:, 1)',      @() X(:, 1)
  'x(1:2:n) = 0.5', @() subsasgn(x, odd, 0.5)
  'x(1:2:n) = y(1:2:n)', @() subsasgn(x, odd, y_odd)
  '[x, y]',       @() [x, y]
  '[x; y]',       @() [x; y]
  'cat(3, x, y)', @() cat(3, x, y)
  'reshape(x, r, [])', @() reshape(x, r, [])
  'x.''',         @() x.'
  'X.''',         @() X.'
};
times = nan(size(ops, 1), numel(roots));
difference = zeros(size(ops, 1), 1);   % largest difference of the two (0: same bits; Inf: sizes)
for k = 1:size(ops, 1)
  results = cell(1, numel(roots));
  for side = 1:numel(roots)
    addpath(roots{side});
    op = ops{k, 2};
    z = op();
    results{side} = {getvalue(z), getinternalderivs(z)};
    start = cputime;
    z = op();
    once = cputime - start;
    reps = max(1, ceil(0.02 / max(once, 1e-6)));
    best = Inf;
    for batch = 1:(5 - 3 * (once > 0.1))
      start = cputime;
      for rep = 1:reps
        z = op();
      end
      best = min(best, (cputime - start) / reps);
    end
    times(k, side) = best;
    clear z;
    rmpath(roots{side});
  end
  [a, b] = results{:};
  if ~isequal(size(a{1}), size(b{1})) || ~isequal(size(a{2}), size(b{2}))
    difference(k) = Inf;
  elseif ~(isequal(a{1}, b{1}) && isequal(a{2}, b{2}))
    difference(k) = max(norm(full(a{1}(:) - b{1}(:)), Inf), norm(full(a{2}(:) - b{2}(:)), Inf));
  end
end
names = ops(:, 1);
config = configs(c, :);
save('-binary', getenv('FMAD_OUT'), 'times', 'difference', 'names', 'config');
