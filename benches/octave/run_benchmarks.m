% RUN_BENCHMARKS  Octave benchmarks of msad_eval against finite differences and Octave's own
% evaluation (tables of CPU(J+f)/CPU(f)); `make bench` runs it from the repository root.
% A hook for now: the benchmark issue adds the problems and the tables.
addpath(fullfile(pwd, 'matlab'));
disp('benchmarks: none yet');
