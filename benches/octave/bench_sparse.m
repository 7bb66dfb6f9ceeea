% BENCH_SPARSE  Issue #22's sparse targets, each ratio measured side by side in this one Octave
% session: a constant sparse tridiagonal K \ x (n = 2000 J+f, n = 1e5 value and the gradient of a
% scalar objective through it), and an x-dependent tridiagonal A(x) assembled with sparse(i, j, v)
% in A(x) * u and in an implicit Euler step (speye(n) - h*A(x)) \ u0. Times: process CPU time.
% Prints a markdown section; MSAD_BENCH_SPARSE_OUT names a file to write it to as well.
%   octave-cli benches/octave/bench_sparse.m          (benches/run.sh runs it)
benchDir = fileparts(mfilename('fullpath'));
repoRoot = fileparts(fileparts(benchDir));
addpath(benchDir, fullfile(repoRoot, 'matlab'));
quick = ~isempty(getenv('MSAD_BENCH_QUICK'));
runs = 5 - 2 * quick;
[lines, row] = bench_ratio_table();
tridiagonal = @(n) spdiags(ones(n, 1) * [-1, 4, -1], -1:1, n, n);

% Constant K \ x: J = inv(K), a full n x n matrix.
n = 2000;
K = tridiagonal(n);
x = rand(n, 1);
f = @(x) K \ x;
clear msad_eval;
tic; [~, J] = msad_eval(f, x); first = toc;
% The floor: writing J's n^2 numbers once (J+f can never beat it).
floor_ms = 1e3 * bench_median_time(@() ones(n, n), runs, 0.2);
check = sprintf('|J*K - I|_1 = %.1e; floor (write J) %.3g ms = %.0fx f', norm(J * K - eye(n), 1), floor_ms, floor_ms / (1e3 * bench_median_time(@() f(x), runs, 0.2)));
tf = bench_median_time(@() f(x), runs, 0.2);
tm = bench_median_time(@() msad_jacobian_call(f, x), runs, 0.2);
lines{end+1} = row('constant sparse K \ x, J+f', n, tf, tm, '<= 10x f', first, check);

n = 1e5;
K = tridiagonal(n);
x = rand(n, 1);
f = @(x) K \ x;
clear msad_eval;
tic; y = msad_eval(f, x); first = toc;
tf = bench_median_time(@() f(x), runs, 0.2);
tm = bench_median_time(@() msad_eval(f, x), runs, 0.2);
lines{end+1} = row('constant sparse K \ x, f only', n, tf, tm, 'must run', first, sprintf('rel. error %.1e', norm(y - K \ x) / norm(K \ x)));
try
  [~, J] = msad_eval(f, x);
  lines{end+1} = row('constant sparse K \ x, J+f', n, tf, NaN, 'must run', NaN, 'J computed');
catch err
  lines{end+1} = sprintf('| constant sparse K \\ x, J+f | %d | - | - | - | must run | - | %s (J is a full 1e5 x 1e5 matrix, 80 GB) |', n, err.identifier);
end
% What runs without J: a Jacobian-vector product J*v (opts.seed, one forward direction).
v = cos((1:n)');
clear msad_eval;
tic; [~, Jv] = msad_eval(f, x, struct('seed', v)); first = toc;
tm = bench_median_time(@() msad_jacobian_call(f, x, struct('seed', v)), runs, 0.2);
lines{end+1} = row('constant sparse K \ x, J*v (opts.seed: J not formed)', n, tf, tm, 'must run', first, ...
                   sprintf('rel. error %.1e', norm(Jv - K \ v) / norm(K \ v)));
g = @(x) sum((K \ x).^2);
clear msad_eval;
tic; [~, grad] = msad_eval(g, x); first = toc;
exact = 2 * (K' \ (K \ x));
tf = bench_median_time(@() g(x), runs, 0.2);
tm = bench_median_time(@() msad_jacobian_call(g, x), runs, 0.2);
lines{end+1} = row('gradient of sum((K \ x).^2) (reverse: adjoint solve)', n, tf, tm, '-', first, sprintf('rel. error %.1e', norm(grad - exact) / norm(exact)));

% x-dependent tridiagonal A(x), assembled from triplets.
h = 0.1;
for n = [2000, 1e4]
  u0 = cos((1:n)');
  x = 0.5 + rand(n, 1);
  A = @(x) sparse([1:n, 2:n, 1:n-1], [1:n, 1:n-1, 2:n], [-2 * x.^2; x(2:n); sin(x(1:n-1))], n, n);
  product = @(x) A(x) * u0;
  step = @(x) (speye(n) - h * A(x)) \ u0;
  clear msad_eval;
  tic; [~, J] = msad_eval(product, x); first = toc;
  % d(A(x) * u)_i / dx_i = -4 x_i u_i + u_(i-1) + cos(x_i) u_(i+1): a diagonal J.
  dAu = @(u) -4 * x .* u + [0; u(1:n-1)] + [cos(x(1:n-1)) .* u(2:n); 0];
  reference = spdiags(dAu(u0), 0, n, n);
  tf = bench_median_time(@() product(x), runs, 0.2);
  tm = bench_median_time(@() msad_jacobian_call(product, x), runs, 0.2);
  lines{end+1} = row('x-dependent tridiagonal assembly, A(x) * u, J+f', n, tf, tm, '-', first, sprintf('|J - exact|_1 = %.1e', norm(J - reference, 1)));
  clear msad_eval;
  tic; [y, J] = msad_eval(step, x); first = toc;
  % J = M \ (h * dA/dx * y), M = speye(n) - h*A(x).
  exact = (speye(n) - h * A(x)) \ (h * spdiags(dAu(y), 0, n, n));
  tf = bench_median_time(@() step(x), runs, 0.2);
  tm = bench_median_time(@() msad_jacobian_call(step, x), max(1, runs - 2), 0.2);
  % The floors: writing J's nonzeros once as a sparse matrix, and an n x n full array (J is
  % structurally full: every entry of (I - hA)^-1 depends on x).
  [ji, jj, jv] = find(J);
  floor_ms = 1e3 * bench_median_time(@() sparse(ji, jj, jv, n, n), runs, 0.2);
  full_floor_ms = 1e3 * bench_median_time(@() ones(n, n), runs, 0.2);
  lines{end+1} = row('x-dependent tridiagonal assembly + implicit Euler step, J+f', n, tf, tm, '<= 10x f', first, ...
                     sprintf('rel. error %.1e, nnz(J) %d, issparse(J) %d; floors: write J sparse %.3g ms = %.0fx f, ones(n, n) %.3g ms = %.0fx f', ...
                             norm(J - exact, 1) / norm(exact, 1), nnz(J), issparse(J), floor_ms, floor_ms / (1e3 * tf), full_floor_ms, full_floor_ms / (1e3 * tf)));
  % Reverse mode through the x-dependent sparse matrix: the gradient of a scalar objective.
  objective = @(x) sum(step(x).^2);
  clear msad_eval;
  tic; [~, grad] = msad_eval(objective, x, struct('mode', 'reverse')); first = toc;
  [~, forward] = msad_eval(objective, x, struct('mode', 'forward'));
  tf = bench_median_time(@() objective(x), runs, 0.2);
  tm = bench_median_time(@() msad_jacobian_call(objective, x, struct('mode', 'reverse')), runs, 0.2);
  lines{end+1} = row('gradient of sum(((speye(n) - h*A(x)) \ u0).^2), reverse', n, tf, tm, '-', first, ...
                     sprintf('rel. diff. to forward %.1e', norm(grad - forward) / norm(forward)));
end

bench_print_report(lines, 'MSAD_BENCH_SPARSE_OUT');
