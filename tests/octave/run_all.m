% RUN_ALL  Octave test runner for msad.
%
%   From the repository root:
%     octave-cli --norc --no-gui tests/octave/run_all.m [PATTERN]
%
%   Runs every tests/octave/**/test_*.m (a script, or a function taking no
%   arguments; a test fails by throwing), each in its own function workspace
%   with the path and working directory restored afterwards, then the
%   built-in self-tests (%!test, %!assert, %!error ... blocks) of every .m
%   file directly in matlab/. Each such file counts as ONE test; its line
%   shows how many of its blocks passed.
%
%   PATTERN (or the environment variable MSAD_TEST_FILTER) is a regular
%   expression: only tests whose name matches it run (BIST names look like
%   "bist:msad_eval").
%
%   Output: one line per test (PASS name (time) / FAIL name: [identifier]
%   message), then the final line "octave: N passed, N failed". The exit code
%   is 0 iff nothing failed. Set MSAD_TEST_NO_EXIT=1 to run it from an
%   interactive session without leaving Octave.

more off;
repoRoot = fileparts(fileparts(fileparts(mfilename('fullpath'))));
cd(repoRoot);
pattern = getenv('MSAD_TEST_FILTER');
% A pattern argument only when run as `octave-cli run_all.m PATTERN`; under
% --eval the last argument is the evaluated code, not a pattern.
commandLine = argv();
if isempty(pattern) && ~isempty(commandLine) && ~any(strncmp(commandLine, '--eval', 6)) ...
    && ~isempty(commandLine{end}) && commandLine{end}(1) ~= '-'
  pattern = commandLine{end};
end
addpath(fullfile(repoRoot, 'tests', 'octave', 'helpers'));
status = run_octave_tests(repoRoot, pattern);
if isempty(getenv('MSAD_TEST_NO_EXIT'))
  exit(status);
end
