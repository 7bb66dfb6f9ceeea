function test_fuzz_eval()
% The evaluation fuzzer: random programs from a grammar (tests/octave/fuzz/random_program.m) are run
% in Octave and by msad at two points in turn (the second meets the first one's cached pattern). The
% values must equal Octave's, and J (forward, and the gradient of a sum of squares in reverse mode)
% must match central differences of Octave's own evaluation. MSAD_FUZZ_PROGRAMS (default 100) and
% MSAD_FUZZ_SEED (default 1) choose the programs; a failure prints the program to reproduce it.
  count = env_number('MSAD_FUZZ_PROGRAMS', 100);
  firstSeed = env_number('MSAD_FUZZ_SEED', 1);
  folder = tempname();
  mkdir(folder);
  cleanup = onCleanup(@() remove_folder(folder));
  addpath(folder);
  addpath(fullfile(fileparts(mfilename('fullpath')), 'fuzz'));
  failures = {};
  unsupported = 0;
  invalid = 0;
  for seed = firstSeed:(firstSeed + count - 1)
    name = sprintf('fuzz_program_%d', seed);
    text = random_program(name, seed);
    write_file(fullfile(folder, [name '.m']), text);
    rehash();
    fun = str2func(name);
    try
      outcome = check_program(fun, seed);
    catch err
      outcome = sprintf('[%s] %s', err.identifier, err.message);
    end
    if strcmp(outcome, 'invalid')
      invalid = invalid + 1;
    elseif strcmp(outcome, 'unsupported')
      unsupported = unsupported + 1;
    elseif ~isempty(outcome)
      failures{end + 1} = sprintf('seed %d: %s\n%s', seed, outcome, text);
    end
  end
  printf('  fuzz: %d programs, %d disagreements, %d unsupported, %d that Octave rejects\n', ...
         count, numel(failures), unsupported, invalid);
  if ~isempty(failures)
    error('fuzz:disagreement', '%d of %d programs disagree:\n%s', numel(failures), count, strjoin(failures, "\n\n"));
  end
end

function outcome = check_program(fun, seed)
% '' when msad agrees with Octave at both points, 'unsupported' when msad refuses the program with
% msad:unsupported, 'invalid' when Octave itself raises an error, else what differs.
  outcome = '';
  points = {1.3 * sin((1:6)' * (0.37 * seed) + 1), 1.3 * cos((1:6)' * (0.53 * seed) + 2)};
  objective = @(x) sum(reshape(fun(x), [], 1).^2);
  clear msad_eval
  for p = 1:2
    x = points{p};
    try
      expected = fun(x);
    catch
      outcome = 'invalid';
      return;
    end
    try
      [value, J] = msad_eval(fun, x);
      [f, g] = msad_eval(objective, x, struct('mode', 'reverse'));
    catch err
      if strcmp(err.identifier, 'msad:unsupported')
        printf('  fuzz: seed %d unsupported: %s\n', seed, strtok(err.message, "\n"));
        outcome = 'unsupported';
        return;
      end
      rethrow(err);
    end
    check_value(value, expected, 1e-12, sprintf('value at point %d', p));
    check_derivative(J, fd_jacobian(fun, x), sprintf('J at point %d', p));
    check_value(f, objective(x), 1e-12, sprintf('sum of squares at point %d', p));
    check_derivative(g', fd_jacobian(objective, x), sprintf('reverse gradient at point %d', p));
  end
end

function check_derivative(J, reference, label)
% Normwise against max(1, max |reference|): random programs make entries far below their row's scale
% (a saturated tanh), which central differences resolve only to rounding.
  if ~isequal(size(J), size(reference))
    error('fuzz:size', '%s: size %s, expected %s', label, mat2str(size(J)), mat2str(size(reference)));
  end
  err = max(abs(full(J(:)) - reference(:))) / max([1; abs(reference(:))]);
  if ~(err <= 1e-6)
    error('fuzz:derivative', '%s: error %.3g relative to max(1, max |J|)', label, err);
  end
end

function value = env_number(name, default)
  text = getenv(name);
  if isempty(text)
    value = default;
  else
    value = str2double(text);
  end
end

function write_file(path, text)
  fid = fopen(path, 'w');
  fputs(fid, text);
  fclose(fid);
end

function remove_folder(folder)
  rmpath(folder);
  confirm_recursive_rmdir(false, 'local');
  rmdir(folder, 's');
end
