function [lines, row] = bench_ratio_table()
% BENCH_RATIO_TABLE  The header lines of a table of msad's time against f's, and the function that
%   formats one of its rows: row(name, n, tf, tm, target, first, check) with times in seconds.
  lines = {'| problem | n | f (ms) | msad (ms) | ratio | target | first call (s) | check |', ...
           '|---|---|---|---|---|---|---|---|'};
  row = @(name, n, tf, tm, target, first, check) sprintf('| %s | %d | %.3g | %.3g | %.3g | %s | %.3g | %s |', ...
                                                       name, n, 1e3 * tf, 1e3 * tm, tm / tf, target, first, check);
end
