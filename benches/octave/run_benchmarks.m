% RUN_BENCHMARKS  Octave benchmarks of msad_eval (issue #11): for each problem of bench_problems,
% times f in Octave and J+f by msad_eval (default and full), sparse and dense finite differences,
% a hand-coded Jacobian and the fmad drop-in, all in this one Octave session; prints the ratios
% time(J+f by X) / time(f) with the status of each target, and checks every J against a reference.
%   octave-cli benches/octave/run_benchmarks.m          (from anywhere; benches/run.sh runs it)
% Environment: see bench_settings (MSAD_BENCH_QUICK, MSAD_BENCH_CAP, MSAD_BENCH_OUT).
benchDir = fileparts(mfilename('fullpath'));
repoRoot = fileparts(fileparts(benchDir));
addpath(benchDir, fullfile(benchDir, 'problems'), fullfile(benchDir, 'hand'), ...
        fullfile(repoRoot, 'tests', 'octave', 'problems'), fullfile(repoRoot, 'tests', 'octave', 'helpers'), ...
        fullfile(repoRoot, 'matlab'));
rand('state', 11);   % the random points where patterns are taken
settings = bench_settings();
printf('msad benchmarks: %s time, cap %g s per call, quick run: %d\n', settings.clockName, ...
       settings.capSeconds, settings.quick);
[runStarted, cpuStarted] = deal(tic, cputime);
results = [];
for problem = bench_problems(settings.quick, settings.only, settings.maxN).'
  results = [results, bench_problem(problem, settings)];
end
report = bench_report(results, settings);
printf('Octave benchmarks took %.0f s (%.0f s of CPU time)\n', toc(runStarted), cputime - cpuStarted);
printf('\n%s\n', report);
if ~isempty(settings.output)
  fid = fopen(settings.output, 'w');
  fputs(fid, report);
  fclose(fid);
end
