function bench_print_report(lines, variable)
% BENCH_PRINT_REPORT  Prints the markdown lines of a benchmark section, and writes them to the file
%   the environment variable VARIABLE names, when it is set (benches/run.sh collects them).
  report = strjoin(lines, "\n");
  printf('%s\n', report);
  out = getenv(variable);
  if ~isempty(out)
    fid = fopen(out, 'w');
    fputs(fid, report);
    fclose(fid);
  end
end
