% BENCH_SCALE  Issue #26's targets, each ratio measured side by side in this one Octave session:
% the arrowhead Jacobian (bidirectional passes) at n = 1e4, the gradient of sum((G*x).^2) with a
% sparse G at n = 1e5 (sparse reverse products), a dense Hessian at n = 1000 (first and later calls),
% and the passes bidirectional partitions need on three pattern families. Times: process CPU time.
% Prints a markdown section; MSAD_BENCH_SCALE_OUT names a file to write it to as well.
%   octave-cli benches/octave/bench_scale.m          (benches/run.sh runs it)
benchDir = fileparts(mfilename('fullpath'));
repoRoot = fileparts(fileparts(benchDir));
addpath(benchDir, fullfile(benchDir, 'scale'), fullfile(repoRoot, 'matlab'));
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
lines{end+1} = row('dense Hessian 0.5*sum(x.^2)^2 + sum(exp(x))', n, tf, tm, 'first call <= 1 s', first, ...
                   sprintf('rel. error %.1e; later call / (n f) = %.2f', err, tm / (n * tf)));

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

bench_print_report(lines, 'MSAD_BENCH_SCALE_OUT');

