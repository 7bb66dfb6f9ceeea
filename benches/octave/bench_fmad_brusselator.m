% Brusselator (N = 1000 points, 2000 unknowns): time of the right-hand side
% f alone and of its Jacobian by fmad (full identity, sparse identity,
% compressed with MADcolor/MADgetseed + MADuncompressJac), by central finite
% differences (dense, and colour-compressed), and by msad_eval when the MEX
% is built. Prints medians of several runs and the ratios to time(f).
%   octave-cli --eval "run('benches/octave/bench_fmad_brusselator.m')"
% (set N beforehand to change the size).
root = fileparts(fileparts(fileparts(mfilename('fullpath'))));
addpath(fullfile(root, 'matlab'), fullfile(root, 'benches', 'octave'), ...
        fullfile(root, 'tests', 'octave', 'problems'), ...   % the shared Brusselator
        fullfile(root, 'tests', 'octave', 'fmad'));          % its hand Jacobian
if ~exist('N', 'var')
  N = 1000;
end
runs = 5;
f = @brusselator_rhs_vec;
y0 = brusselator_init(N);
n = 2 * N;
J_hand = fmadtest_brusselator_jacobian(y0);
pattern = J_hand ~= 0;

% Central differences with a given set of directions (the columns of S).
central_fd = @(S) (cell2mat(arrayfun(@(k) f(y0 + 1e-6 * S(:, k)) - f(y0 - 1e-6 * S(:, k)), ...
                                     1:size(S, 2), 'UniformOutput', false))) / 2e-6;

start = cputime;
colours = MADcolor(pattern);
seed = MADgetseed(pattern, colours);
t_colour = cputime - start;

methods = {
  'f alone',                        @() f(y0)
  'fmad full identity',             @() getinternalderivs(f(fmad(y0, eye(n))))
  'fmad sparse identity',           @() getinternalderivs(f(fmad(y0, speye(n))))
  'fmad compressed + recovery',     @() MADuncompressJac(getinternalderivs(f(fmad(y0, seed))), pattern, colours)
  'central FD dense',               @() central_fd(speye(n))
  'central FD compressed + recovery', @() MADuncompressJac(central_fd(seed), pattern, colours)
};
if exist('msad_eval', 'file')
  methods(end+1, :) = {'msad_eval', @() msad_eval(f, y0)};
end

% Every method must give the Jacobian before it is timed.
for k = 2:size(methods, 1)
  J = methods{k, 2}();
  if strcmp(methods{k, 1}, 'msad_eval')
    [~, J] = msad_eval(f, y0);
  end
  tolerance = 1e-12;
  if strncmp(methods{k, 1}, 'central FD', 10)
    tolerance = 1e-6;
  end
  err = norm(J - J_hand, 1) / norm(J_hand, 1);
  if err > tolerance
    error('bench: %s gives a Jacobian with relative error %g', methods{k, 1}, err);
  end
end

fprintf('Brusselator N = %d (%d unknowns, nnz(J) = %d, %d colours), Octave %s\n', ...
        N, n, nnz(J_hand), max(colours), version());
fprintf('CPU time, median of %d runs; colouring + seed (one-off): %.2f ms\n\n', runs, 1e3 * t_colour);
fprintf('%-34s %12s %12s\n', 'method', 'time [ms]', 'time / t(f)');
t_f = NaN;
for k = 1:size(methods, 1)
  t = bench_median_time(methods{k, 2}, runs, 0.2);
  if k == 1
    t_f = t;
  end
  fprintf('%-34s %12.3f %12.1f\n', methods{k, 1}, 1e3 * t, t / t_f);
end
if ~exist('msad_eval', 'file')
  fprintf('%-34s %12s %12s\n', 'msad_eval', 'skipped', '(no MEX)');
end
