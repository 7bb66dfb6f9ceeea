function problems = bench_problems(quick, only, maxN)
% BENCH_PROBLEMS  The benchmark problems: function, sizes, start, pattern, hand Jacobian, targets.
%   problems = bench_problems(quick) is a struct array; quick = true keeps only the two
%   smallest sizes of each problem (a smoke test of the driver). Sizes n count unknowns.
%   bench_problems(quick, only, maxN) keeps the problems whose name matches the regular
%   expression ONLY ('' = all) and the sizes up to maxN (NaN = all).
%   Fields: name, fun, init(n) -> x0, sizes, hand (Jacobian function or []),
%   pattern(n) -> sparse logical pattern ([] = dense), targets (see bench_targets), note.
  brusselatorSizes = [40 160 640 2560 10240 40960];
  problems = [
    problem('Brusselator, scalar loops', @brusselator_rhs, @(n) brusselator_init(n/2), brusselatorSizes, ...
            @brusselator_jacobian, @(n) pattern_at_random_point(@brusselator_jacobian, n), ...
            brusselator_targets(), 'brusselator_rhs.m; n = 2N unknowns; J banded, nnz 8N-4.')
    problem('Brusselator, vectorised', @brusselator_rhs_vec, @(n) brusselator_init(n/2), brusselatorSizes, ...
            @brusselator_jacobian, @(n) pattern_at_random_point(@brusselator_jacobian, n), ...
            brusselator_targets(), 'brusselator_rhs_vec.m; same function and Jacobian as the loop version.')
    problem('Burgers moving mesh, vectorised', @burgers_mm_vec, @(n) burgers_init(n/2), 2 * [16 128 1024 8192 32768], ...
            [], @burgers_pattern, struct('ratio', 3), 'burgers_mm_vec.m; n = 2N unknowns [u; x]; J block-tridiagonal.')
    problem('Burgers moving mesh, scalar loops', @burgers_mm_loop, @(n) burgers_init(n/2), 2 * [16 64 256 512], ...
            [], @burgers_pattern, struct('ratio', 1), 'burgers_mm_loop.m; n = 2N unknowns.')
    problem('MINPACK-2 enzyme reaction', @enzyme_residual, @(n) enzyme_init(), 4, ...
            @enzyme_jacobian, [], minpack_targets(), '11 residuals, 4 unknowns, scalar loop.')
    problem('MINPACK-2 human heart dipole', @heart_dipole_residual, @(n) heart_dipole_init(), 8, ...
            [], [], minpack_targets(), '8 x 8, scalar expressions (benches/octave/problems).')
    problem('MINPACK-2 propane combustion', @propane_residual, @(n) propane_init(), 11, ...
            [], [], minpack_targets(), '11 x 11, scalar expressions with square roots.')
    problem('MINPACK-2 coating thickness', @coating_thickness_residual, @(n) coating_thickness_init(), 134, ...
            [], @coating_thickness_pattern, minpack_targets(), '252 x 134, vectorised, synthetic data; J sparse, 6 colours.')
    problem('Broyden tridiagonal', @broyden_tridiag, @(n) -ones(n, 1), [100 1000 10000], ...
            @broyden_tridiag_jacobian, @(n) pattern_at_random_point(@broyden_tridiag_jacobian, n), ...
            struct('hand', 1), 'broyden_tridiag.m, vectorised; J tridiagonal.')
    problem('Brown function gradient', @brown_fun, @(n) repmat([-1; 1], n/2, 1), [100 1000], ...
            @brown_gradient, [], struct('hand', 1), 'brown_fun.m, scalar loop; f scalar, J = gradient (1 x n).')
  ];
  if nargin > 1 && ~isempty(only)
    problems = problems(~cellfun(@isempty, regexp({problems.name}, only, 'once')));
  end
  for k = 1:numel(problems)
    if quick
      problems(k).sizes = problems(k).sizes(1:min(2, end));
    end
    if nargin > 2 && ~isnan(maxN)
      problems(k).sizes = problems(k).sizes(problems(k).sizes <= maxN);
    end
  end
  problems = problems(~arrayfun(@(p) isempty(p.sizes), problems));
end

function p = problem(name, fun, init, sizes, hand, pattern, targets, note)
  p = struct('name', name, 'fun', fun, 'init', init, 'sizes', sizes, 'hand', [], ...
             'pattern', [], 'targets', targets, 'note', note);
  p.hand = hand;       % assigned apart: struct() would turn a [] into an empty struct array
  p.pattern = pattern;
end

% Targets of issue #11, ratio = time(J+f by msad) / time(f in Octave).
function targets = brusselator_targets()
  targets = struct('ratio', @(n) 1 + 2 * (n > 1000), 'sparseFd', 3, 'hand', 1);
end

function targets = minpack_targets()
  targets = struct('ratio', 2, 'hand', 1);
end

function pattern = pattern_at_random_point(jacobian, n)
  % A random point makes every structural entry nonzero (with probability 1).
  pattern = spones(jacobian(1 + rand(n, 1)));
end

function pattern = burgers_pattern(n)
  % Each equation of node i reads u and x at nodes i-1, i, i+1.
  N = n / 2;
  pattern = spones(kron(ones(2), spdiags(ones(N, 3), -1:1, N, N)));
end

function pattern = coating_thickness_pattern(n)
  % Rows i and 63+i read the model parameters and the point's two errors; penalties one error.
  points = (n - 8) / 2;
  i = (1:points).';
  sErr = 8 + i;
  tErr = 8 + points + i;
  model = repmat(1:4, points, 1);
  rows = [repmat(i, 1, 6), repmat(points + i, 1, 6), 2*points + i, 3*points + i];
  cols = [model, sErr, tErr, model + 4, sErr, tErr, sErr, tErr];
  pattern = sparse(rows(:), cols(:), 1, 4 * points, n);
end
