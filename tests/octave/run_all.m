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

1;  % Marks this file as a script so the functions below are local to it.

function files = find_test_files(folder)
  % Depth-first, sorted, so the order is the same on every machine.
  files = {};
  listing = dir(folder);
  [~, order] = sort({listing.name});
  listing = listing(order);
  for k = 1:numel(listing)
    entry = listing(k);
    fullName = fullfile(folder, entry.name);
    if entry.isdir
      if entry.name(1) ~= '.'
        files = [files, find_test_files(fullName)];  %#ok<AGROW>
      end
    elseif ~isempty(regexp(entry.name, '^test_.*\.m$', 'once'))
      files{end + 1} = fullName;  %#ok<AGROW>
    end
  end
end

function run_isolated(msad_runner_test_name__)
  % A fresh function workspace per test: scripts cannot see or clobber the
  % runner's variables, and their own variables vanish on return.
  eval(msad_runner_test_name__);
end

function text = describe_error(err)
  identifier = err.identifier;
  if isempty(identifier)
    identifier = 'no identifier';
  end
  lines = strsplit(err.message, "\n");
  text = sprintf('[%s] %s', identifier, lines{1});
  % Point at the user's frame, not at Octave's own assert or error helpers.
  octaveFrames = strncmp({err.stack.file}, matlabroot(), numel(matlabroot()));
  userFrame = find(~octaveFrames, 1);
  if ~isempty(userFrame)
    frame = err.stack(userFrame);
    text = sprintf('%s (at %s line %d)', text, frame.name, frame.line);
  end
  % Continuation lines (e.g. a caret under a source position) stay readable.
  for k = 2:numel(lines)
    if ~isempty(lines{k})
      text = sprintf('%s\n    %s', text, lines{k});
    end
  end
end

function passed = run_test_file(file, name)
  savedPath = path();
  savedFolder = pwd();
  addpath(fileparts(file));
  started = tic();
  try
    run_isolated(name);
    passed = true;
    printf('PASS %s (%.2f s)\n', name, toc(started));
  catch err
    passed = false;
    printf('FAIL %s: %s\n', name, describe_error(err));
  end
  path(savedPath);
  cd(savedFolder);
  fflush(stdout);
end

function passed = run_bist_file(file, name)
  started = tic();
  try
    [nPassed, nBlocks, nExpectedFail, nKnownBug, nSkipped, nRuntimeSkipped] = ...
        test(file, 'quiet', stdout);
    nFailed = nBlocks - nPassed - nExpectedFail - nKnownBug - nSkipped - nRuntimeSkipped;
    passed = nFailed == 0;
    if passed
      printf('PASS %s (%d/%d blocks, %.2f s)\n', name, nPassed, nBlocks, toc(started));
    else
      printf('FAIL %s: %d of %d blocks failed\n', name, nFailed, nBlocks);
    end
  catch err
    passed = false;
    printf('FAIL %s: %s\n', name, describe_error(err));
  end
  fflush(stdout);
end

function status = run_all_tests(repoRoot, pattern)
  testRoot = fullfile(repoRoot, 'tests', 'octave');
  matlabDir = fullfile(repoRoot, 'matlab');
  addpath(fullfile(testRoot, 'fixtures'));
  addpath(fullfile(testRoot, 'helpers'));
  addpath(fullfile(testRoot, 'problems'));
  if exist(matlabDir, 'dir')
    addpath(matlabDir);
  end
  selected = @(name) isempty(pattern) || ~isempty(regexp(name, pattern, 'once'));

  nPassed = 0;
  nFailed = 0;
  testFiles = find_test_files(testRoot);
  for k = 1:numel(testFiles)
    [~, name] = fileparts(testFiles{k});
    if selected(name)
      if run_test_file(testFiles{k}, name)
        nPassed = nPassed + 1;
      else
        nFailed = nFailed + 1;
      end
    end
  end

  if exist(matlabDir, 'dir')
    sources = dir(fullfile(matlabDir, '*.m'));
    for k = 1:numel(sources)
      file = fullfile(matlabDir, sources(k).name);
      [~, base] = fileparts(file);
      name = ['bist:' base];
      if selected(name) && ~isempty(strfind(fileread(file), '%!'))
        if run_bist_file(file, name)
          nPassed = nPassed + 1;
        else
          nFailed = nFailed + 1;
        end
      end
    end
  end

  printf('octave: %d passed, %d failed\n', nPassed, nFailed);
  fflush(stdout);
  status = double(nFailed > 0);
end

more off;
repoRoot = fileparts(fileparts(fileparts(mfilename('fullpath'))));
cd(repoRoot);
pattern = getenv('MSAD_TEST_FILTER');
commandLine = argv();
if isempty(pattern) && ~isempty(commandLine) && ~isempty(commandLine{end}) ...
    && commandLine{end}(1) ~= '-' ...
    && isempty(regexp(commandLine{end}, 'run_all(\.m)?$', 'once'))
  pattern = commandLine{end};
end
status = run_all_tests(repoRoot, pattern);
if isempty(getenv('MSAD_TEST_NO_EXIT'))
  exit(status);
end
