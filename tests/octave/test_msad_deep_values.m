function test_msad_deep_values()
% Cells and structs nested 100,000 deep, passed as extra arguments, and a chain of 100,000 closures
% are refused with msad:badInput and the next call works. Run in a separate Octave: Octave 7 itself segfaults when it frees values
% nested that deep (at exit, with or without msad), so the test reads that Octave's output, not its
% exit status.
  here = fileparts(mfilename('fullpath'));
  script = [tempname() '.m'];
  fid = fopen(script, 'w');
  fprintf(fid, 'addpath(''%s'');\n', fullfile(here, '..', '..', 'matlab'));
  fprintf(fid, 'c = 1; for k = 1:1e5, c = {c}; end\n');
  fprintf(fid, 's = 1; for k = 1:1e5, s = struct(''f'', s); end\n');
  fprintf(fid, 'f = @(x) x; for k = 1:1e5, f = @(x) f(x) + 1; end\n');
  fprintf(fid, 'x = [1; 2];\n');
  fprintf(fid, 'try, msad_eval(f, x); catch e, printf(''chain: %%s\\n'', e.identifier); end\n');
  fprintf(fid, 'try, msad_eval(@(y, c) y, x, struct(), c); catch e, printf(''cell: %%s\\n'', e.identifier); end\n');
  fprintf(fid, 'try, msad_eval(@(y, s) y, x, struct(), s); catch e, printf(''struct: %%s\\n'', e.identifier); end\n');
  fprintf(fid, 'printf(''after: %%g %%g\\n'', msad_eval(@(y) 2 * y, x));\n');
  fclose(fid);
  cleanup = onCleanup(@() delete(script));
  [~, output] = system(sprintf('octave-cli --norc --no-gui -q "%s" 2>&1', script));
  assert(~isempty(strfind(output, 'cell: msad:badInput')), 'a cell 1e5 deep: %s', output);
  assert(~isempty(strfind(output, 'struct: msad:badInput')), 'a struct 1e5 deep: %s', output);
  assert(~isempty(strfind(output, 'chain: msad:badInput')), 'closures 1e5 deep: %s', output);
  assert(~isempty(strfind(output, 'after: 2 4')), 'the call after them: %s', output);
end
