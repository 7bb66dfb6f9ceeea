% BENCH_SCALE  Issue #26's targets, each ratio measured side by side in this one Octave session:
% the arrowhead Jacobian (bidirectional passes) at n = 1e4, the gradient of sum((G*x).^2) with a
% sparse G at n = 1e5, a dense Hessian at n = 1000 (first and later calls), Hessians of partially
% separable objectives and of a power-balance Lagrangian (2000 buses, against a hand-coded one).
% Prints a markdown section; MSAD_BENCH_SCALE_OUT names a file to write it to as well.
%   octave-cli benches/octave/bench_scale.m          (benches/run.sh runs it)
benchDir = fileparts(mfilename('fullpath'));
repoRoot = fileparts(fileparts(benchDir));
addpath(benchDir, fullfile(benchDir, 'scale'), fullfile(repoRoot, 'matlab'), fullfile(repoRoot, 'tests', 'octave', 'fixtures'));
quick = ~isempty(getenv('MSAD_BENCH_QUICK'));
runs = 5 - 2 * quick;
[lines, row] = bench_ratio_table();

% Arrowhead Jacobian: 2 forward directions and 1 reverse pass whatever n.
n = 1e4;
x = 0.5 + rand(n, 1);
clear msad_eval;
tic; [~, J] = msad_eval(@arrowhead_residual, x); first = toc;
[~, J] = msad_eval(@arrowhead_residual, x);
err = norm(J - arrowhead_jacobian(x), 1) / norm(arrowhead_jacobian(x), 1);
check = sprintf('sparse %d, rel. error %.1e', issparse(J), err);
tf = bench_median_time(@() arrowhead_residual(x), runs, 0.2);
tm = bench_median_time(@() msad_eval(@arrowhead_residual, x), runs, 0.2);
th = bench_median_time(@() arrowhead_jacobian(x), runs, 0.2);
lines{end+1} = row('arrowhead J (bidirectional)', n, tf, tm, '<= 5x f', first, check);
lines{end+1} = row('arrowhead J hand-coded (for scale)', n, tf, th, '-', 0, '-');

% Gradient through a sparse product: reverse mode, A' * ybar without densifying G.
n = 1e5;
G = spdiags([2 + rand(n, 1), -0.5 * ones(n, 1), 0.25 * ones(n, 1)], [0, 1, 7], n, n);
x = rand(n, 1);
f = @(x) sum((G*x).^2);
clear msad_eval;
tic; [~, g] = msad_eval(f, x); first = toc;
err = norm(g - 2 * (G' * (G * x))) / norm(2 * (G' * (G * x)));
tf = bench_median_time(@() f(x), runs, 0.2);
tm = bench_median_time(@() msad_eval(f, x), runs, 0.2);
lines{end+1} = row('gradient of sum((G*x).^2), sparse G', n, tf, tm, '<= 5x f', first, sprintf('rel. error %.1e', err));

% Dense Hessian: first call (preparation, pattern, colouring) and later calls.
n = 1000 - 800 * quick;
x = rand(n, 1) / n;
h = @(x) 0.5 * sum(x.^2)^2 + sum(exp(x));
clear msad_eval;
tic; [~, ~, H] = msad_eval(h, x); first = toc;
Hexact = 4 * (x * x') + 2 * sum(x.^2) * eye(n) + diag(exp(x));
err = norm(H - Hexact, 1) / norm(Hexact, 1);
tf = bench_median_time(@() h(x), runs, 0.2);
tm = bench_median_time(@() msad_hessian_call(h, x), runs, 0.2);
% n forward passes in msad itself: forward mode carrying the n directions of a full identity seed.
identity = struct('seed', eye(n));
tn = bench_median_time(@() msad_eval(h, x, identity), runs, 0.2);
lines{end+1} = row('dense Hessian 0.5*sum(x.^2)^2 + sum(exp(x))', n, tf, tm, 'first call <= 1 s', first, ...
                   sprintf('rel. error %.1e; later call / (n f) = %.2f; / (msad forward, n directions: %.3g ms) = %.2f', ...
                           err, tm / (n * tf), 1e3 * tn, tm / tn));

% Passes per Jacobian family (from msad's verbose log of the first call): bidirectional against
% the bound of column colouring (the densest row), which is what column colouring alone needs here.
lines{end+1} = '';
lines{end+1} = '| pattern family | n | forward colours | reverse row groups | column colouring needs at least |';
lines{end+1} = '|---|---|---|---|---|';
n = 1e4;
families = {'arrowhead', @arrowhead_residual, ones(n, 1) / 2; ...
            'bordered-banded (tridiagonal, 3 border rows and columns)', @(x) bordered_banded_residual(x, 3), ones(n + 3, 1) / 2; ...
            'sum(x) = 1 constraint under x.^2', @(x) [x.^2; sum(x) - 1], ones(n, 1) / 2};
for k = 1:rows(families)
  clear msad_eval;
  log = evalc('[~, ~] = msad_eval(families{k, 2}, families{k, 3}, struct(''verbose'', true));');
  counts = regexp(log, '(\d+) forward colours and (\d+) reverse row groups \(column colouring needs at least (\d+)\)', 'tokens', 'once');
  if isempty(counts)
    counts = {'-', '-', 'column colouring chosen'};
  end
  lines{end+1} = sprintf('| %s | %d | %s | %s | %s |', families{k, 1}, numel(families{k, 3}), counts{:});
end

% Hessians: partially separable objectives (sums of element functions; star colouring needs O(1)
% colours whatever n) and the power-balance Lagrangian against its hand-coded Hessian.
lines{end+1} = '';
% 'fewest possible': the star chromatic number of H's graph where it is known (Fertin, Raspaud, Reed,
% Star coloring of graphs, J. Graph Theory 47, 2004: paths 3, stars 2, 2-D grids 5), else a lower bound
% from a clique in the graph.
lines{end+1} = '| Hessian of | n | f (ms) | msad H later call (ms) | ratio to f | colours (densest row) | fewest possible | first call (s) | check |';
lines{end+1} = '|---|---|---|---|---|---|---|---|---|';
hrow = @(name, n, tf, tm, colours, bound, fewest, first, check) sprintf('| %s | %d | %.3g | %.3g | %.3g | %d (%d) | %s | %.3g | %s |', ...
                                                                       name, n, 1e3 * tf, 1e3 * tm, tm / tf, colours, bound, fewest, first, check);
n = 1e4 - 8000 * quick;
m = 50;
L = kron(speye(m), spdiags(ones(m, 1) * [-1 2 -1], -1:1, m, m)) + kron(spdiags(ones(m, 1) * [-1 2 -1], -1:1, m, m), speye(m));
separable = {'chained Rosenbrock (vectorised)', @chained_rosenbrock, n, '3 (path)'; ...
             'chained Rosenbrock (loop over elements)', @rosenbrock_loop, 1000, '3 (path)'; ...
             'ARWHEAD', @arwhead, n, '2 (star)'; ...
             'BDQRTIC', @bdqrtic, n, '>= 5 (clique x(i:i+3), x(n))'; ...
             'DIXMAANB', @dixmaanb, 3 * floor(n / 3), '>= 3 (triangle x(i), x(i+m), x(i+2m))'; ...
             '0.5 x''L x + sum(x.^4)/4, 5-point L on a 50 x 50 grid', @(x) grid_quartic(x, L), m^2, '5 (2-D grid)'};
for k = 1:rows(separable)
  [name, fn, n, fewest] = separable{k, :};
  x = 0.5 + cos((1:n)') / 4;
  [colours, bound, first] = hessian_colours(fn, x);
  [~, ~, H] = msad_eval(fn, x);
  check = sprintf('sparse %d, H v vs central differences of g: %.1e', issparse(H), hessian_product_error(fn, x, H));
  tf = bench_median_time(@() fn(x), runs, 0.2);
  tm = bench_median_time(@() msad_hessian_call(fn, x), runs, 0.2);
  lines{end+1} = hrow(name, n, tf, tm, colours, bound, fewest, first, check);
end

% The power-balance Lagrangian lambda' * [P; Q] in real form on the meshed 2000-bus network of
% bench_complex.m (G, B captured sparse), against its hand-coded sparse Hessian.
buses = 2000 - 1800 * quick;
[Ybus, ~, Va, Vm] = power_flow_network(buses);
[G, B] = deal(real(Ybus), imag(Ybus));
x = [Va; Vm];
lambda = 1 + 0.1 * mod((1:2 * buses)', 7) - 0.05 * mod((1:2 * buses)', 3);
[colours, bound, first] = hessian_colours(@power_balance_lagrangian, x, G, B, lambda);
[~, ~, H] = msad_eval(@power_balance_lagrangian, x, struct(), G, B, lambda);
Hhand = power_balance_hessian(x, G, B, lambda);
% Entries zero at this x come out as round-off from one and exact zeros from the other (sparse()
% drops them): patterns are compared above 1e-12 max|H|.
roundoff = 1e-12 * max(abs(nonzeros(Hhand)));
check = sprintf('sparse %d, same pattern above round-off %d (%d entries below), rel. error to hand-coded %.1e', issparse(H), ...
                isequal(abs(H) > roundoff, abs(Hhand) > roundoff), nnz(xor(H ~= 0, Hhand ~= 0)), ...
                max(abs(nonzeros(H - Hhand))) / max(abs(nonzeros(Hhand))));
tf = bench_median_time(@() power_balance_lagrangian(x, G, B, lambda), runs, 0.2);
th = bench_median_time(@() power_balance_hessian(x, G, B, lambda), runs, 0.2);
tm = bench_median_time(@() msad_hessian_call(@power_balance_lagrangian, x, G, B, lambda), runs, 0.2);
lines{end+1} = hrow(sprintf('power-balance Lagrangian, %d buses', buses), 2 * buses, tf, tm, colours, bound, ...
                    '>= 4 (clique Va, Vm of a line''s ends)', first, ...
                    sprintf('%s; hand-coded H %.3g ms: msad / hand-coded = %.2f (target <= 3)', check, 1e3 * th, tm / th));

bench_print_report(lines, 'MSAD_BENCH_SCALE_OUT');

