function status = run_octave_tests(repoRoot, pattern)
% RUN_OCTAVE_TESTS  The body of tests/octave/run_all.m (see its help).
%   status = run_octave_tests(repoRoot, pattern) runs the tests whose names
%   match the regular expression pattern ('' for all), prints one line per
%   test and the summary line, and returns 0 iff nothing failed. It lives in
%   a function file, not in the script, because a test's `clear all` would
%   delete functions defined in a script.
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
  % Octave's test() writes its report to a log; it is shown only on failure,
  % so known failures (xtest) and skips do not clutter the output.
  started = tic();
  logFile = [tempname(), '.log'];
  try
    [nPassed, nBlocks, nExpectedFail, nKnownBug, nSkipped, nRuntimeSkipped] = ...
        test(file, 'quiet', logFile);
    nNotRun = nExpectedFail + nKnownBug + nSkipped + nRuntimeSkipped;
    nFailed = nBlocks - nPassed - nNotRun;
    passed = nFailed == 0;
    if passed
      printf('PASS %s (%d/%d blocks', name, nPassed, nBlocks);
      if nNotRun > 0
        printf(', %d known failures or skipped', nNotRun);
      end
      printf(', %.2f s)\n', toc(started));
    else
      printf('FAIL %s: %d of %d blocks failed\n', name, nFailed, nBlocks);
      printf('    %s\n', strsplit(strtrim(fileread(logFile)), "\n"){:});
    end
  catch err
    passed = false;
    printf('FAIL %s: %s\n', name, describe_error(err));
  end
  if exist(logFile, 'file')
    delete(logFile);
  end
  fflush(stdout);
end
