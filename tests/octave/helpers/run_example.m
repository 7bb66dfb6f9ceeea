function comparison = run_example(name, varargin)
% RUN_EXAMPLE  Runs examples/<name>(varargin{:}) quietly and checks its comparison.
%   comparison = run_example(name, ...) puts examples/ on the path, runs the
%   example with its printed table captured (the example itself errors if
%   the solutions differ or msad took more iterations), and checks the
%   returned figures are complete.
  root = fileparts(fileparts(fileparts(fileparts(mfilename('fullpath')))));
  addpath(fullfile(root, 'examples'));
  example = str2func(name);
  printed = evalc('comparison = example(varargin{:});');
  assert(~isempty(strfind(printed, 'speed-up')), '%s printed no comparison:\n%s', name, printed);
  for run = {comparison.reference, comparison.msad}
    assert(run{1}.seconds > 0 && all(isfinite(run{1}.solution(:))), '%s: incomplete run %s', name, run{1}.label);
  end
  assert(comparison.difference >= 0);
end
