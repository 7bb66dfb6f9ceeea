function result = run_conformance(varargin)
% RUN_CONFORMANCE  Differential conformance of msad_eval against Octave.
%   result = run_conformance() runs every item of corpus.txt: the body of
%   @(x) ... evaluated on a named input (conformance_input) by Octave
%   (ref = f(x)) and by msad (got = msad_eval(f, x)), and compares class,
%   sparsity, size and values: exactly ('='), within 1e-14 relative per
%   element ('~'), or within 1e-14 of the largest reference magnitude ('n',
%   for results of BLAS-ordered sums such as matrix products). NaN positions
%   and the sign of zeros must agree. When Octave errors, msad must error too
%   (any identifier).
%
%   Mismatches that match an entry of deviations.txt are deliberate
%   deviations; the others are failures. Prints "category: N passed,
%   M failed, K deviations" per category, the failures, and a total.
%
%   Options (name/value): 'filter' (regexp on category or expression),
%   'verbose' (list deviations too), 'quiet' (no failure list).
%
%   result.counts(k) has fields category, passed, failed, deviations;
%   result.failures and result.deviations list the items (with details).
  opts = struct('filter', '', 'verbose', false, 'quiet', false);
  for k = 1:2:numel(varargin)
    opts.(varargin{k}) = varargin{k + 1};
  end
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'programs'));
  items = read_corpus(fullfile(here, 'corpus.txt'));
  deviations = read_deviations(fullfile(here, 'deviations.txt'));
  if ~isempty(opts.filter)
    keep = ~cellfun(@isempty, regexp(strcat({items.category}, {' '}, {items.expression}), opts.filter, 'once'));
    items = items(keep);
  end

  warnings = warning();
  warning('off', 'all');
  % Invalid calls error at once instead of formatting their help text.
  addpath(fullfile(here, 'quick_usage'));
  cleanup = onCleanup(@() restore(warnings, fullfile(here, 'quick_usage')));
  inputs = struct();
  for name = conformance_input()'
    inputs.(name{1}) = conformance_input(name{1});
  end

  outcome = cell(numel(items), 1);
  for k = 1:numel(items)
    outcome{k} = run_item(items(k), inputs.(items(k).input));
  end
  result = summarise(items, outcome, deviations, opts);
end

function restore(warnings, usage_dir)
  warning(warnings);
  rmpath(usage_dir);
end

function problem = run_item(item, x)
% The mismatch between Octave and msad on one item, '' when they agree.
  f = str2func(['@(x) ' item.expression]);
  try
    ref = f(x);
    refError = '';
  catch err
    refError = err.message;
  end
  try
    got = msad_eval(f, x);
    gotError = '';
  catch err
    gotError = sprintf('[%s] %s', err.identifier, strtok(err.message, "\n"));
  end
  if ~isempty(refError)
    if isempty(gotError)
      problem = sprintf('Octave errors (%s) but msad returns %s', refError, describe(got));
    else
      problem = '';
    end
  elseif ~isempty(gotError)
    problem = sprintf('msad errors %s; Octave returns %s', gotError, describe(ref));
  else
    problem = compare(ref, got, item.cmp);
  end
end

function problem = compare(ref, got, cmp)
  problem = '';
  if ~strcmp(class(ref), class(got)) || issparse(ref) ~= issparse(got) || iscomplex(ref) ~= iscomplex(got)
    problem = sprintf('Octave returns %s, msad %s', describe(ref), describe(got));
  elseif ~isequal(size(ref), size(got))
    problem = sprintf('size: Octave %s, msad %s', mat2str(size(ref)), mat2str(size(got)));
  elseif ~values_agree(double(full(ref(:))), double(full(got(:))), cmp)
    problem = sprintf('values: Octave %s, msad %s', show(ref), show(got));
  end
end

function ok = values_agree(r, g, cmp)
  if iscomplex(r)
    % Both parts exactly, or each within the tolerance of the element's (or the largest) modulus.
    ok = values_agree(real(r), real(g), '=') && values_agree(imag(r), imag(g), '=');
    if ~ok && cmp ~= '='
      nan = isnan(r);
      same_nans = isequal(nan, isnan(g));
      [r, g] = deal(r(~nan), g(~nan));
      scale = abs(r);
      if cmp == 'n'
        scale = max(scale);
      end
      near = @(p, q) p == q | abs(p - q) <= 1e-14 * scale;
      ok = same_nans && all(near(real(r), real(g)) & near(imag(r), imag(g)));
    end
    return;
  end
  nan = isnan(r);
  ok = isequal(nan, isnan(g));
  % The sign of a zero is part of an exact result, not of a BLAS-ordered sum.
  zero = r == 0 & g == 0;
  ok = ok && (cmp == 'n' || isequal(signbit(r(zero)), signbit(g(zero))));
  r = r(~nan);
  g = g(~nan);
  switch cmp
    case '='
      ok = ok && isequal(r, g);
    case '~'
      ok = ok && all(r == g | abs(r - g) <= 1e-14 * abs(r));
    case 'n'
      ok = ok && all(r == g | abs(r - g) <= 1e-14 * max(abs(r)));
    otherwise
      error('conformance:corpus', 'unknown comparison ''%s''', cmp);
  end
end

function text = describe(v)
  if issparse(v)
    kind = 'sparse ';
  elseif isnumeric(v) && ~isreal(v)
    kind = 'complex ';
  else
    kind = '';
  end
  text = sprintf('%s%s %s', kind, class(v), strjoin(arrayfun(@num2str, size(v), 'UniformOutput', false), 'x'));
end

function text = show(v)
  if ischar(v)
    text = ['''' v(:)' ''''];
  elseif isnumeric(v) || islogical(v)
    text = mat2str(double(full(v(:).')), 17);
  else
    text = describe(v);
  end
  if numel(text) > 200
    text = [text(1:200) '...'];
  end
end

function items = read_corpus(file)
  [fields, lines] = read_lines(file, '^(\S+)\s+(\S+)\s+(\S)\s+(.*)$', 'category input cmp expression');
  items = struct('category', fields(:, 1), 'input', fields(:, 2), 'cmp', fields(:, 3), ...
                 'expression', fields(:, 4), 'line', num2cell(lines));
end

function deviations = read_deviations(file)
% Lines "KIND PATTERN | reason": KIND expr (a regexp on the expression),
% item (INPUT EXPRESSION, exact), result (a property of Octave's result:
% complex, integer, single) or problem (a regexp on the mismatch's
% description, e.g. msad's error identifier and message).
  fields = read_lines(file, '^(expr|item|result|problem)\s+(.*?)\s+\|\s+(.*)$', 'KIND PATTERN | reason');
  deviations = struct('kind', fields(:, 1), 'pattern', fields(:, 2), 'reason', fields(:, 3), 'used', 0);
end

function [fields, numbers] = read_lines(file, pattern, form)
% The tokens of every line that is neither blank nor a # comment (one row
% per line) and the line numbers; any other line is an error naming FORM.
  lines = strsplit(fileread(file), "\n");
  numbers = find(~cellfun(@isempty, regexp(lines, '^\s*[^#\s]', 'once')));
  tokens = regexp(lines(numbers), pattern, 'tokens', 'once');
  bad = find(cellfun(@isempty, tokens), 1);
  if ~isempty(bad)
    error('conformance:format', '%s:%d: expected "%s"', file, numbers(bad), form);
  end
  fields = reshape([tokens{:}], [], numel(tokens)).';
  numbers = numbers(:);
end

function k = deviation_of(item, x, problem, deviations)
% Index of the first deviation entry covering a mismatching item, 0 if none.
  for k = 1:numel(deviations)
    d = deviations(k);
    switch d.kind
      case 'problem'
        hit = ~isempty(regexp(problem, d.pattern, 'once'));
      case 'expr'
        hit = ~isempty(regexp(item.expression, d.pattern, 'once'));
      case 'item'
        hit = strcmp(d.pattern, [item.input ' ' item.expression]);
      case 'result'
        % Only an error excuses a result msad cannot represent, never a value.
        hit = strncmp(problem, 'msad errors', 11) && result_has(str2func(['@(x) ' item.expression]), x, d.pattern);
    end
    if hit
      return;
    end
  end
  k = 0;
end

function hit = result_has(f, x, property)
  try
    ref = f(x);
  catch
    hit = false;
    return;
  end
  switch property
    case 'complex'
      hit = isnumeric(ref) && ~isreal(ref);
    case 'integer'
      hit = isinteger(ref);
    case 'single'
      hit = isa(ref, 'single');
    otherwise
      error('conformance:deviations', 'unknown result property ''%s''', property);
  end
end

function result = summarise(items, outcome, deviations, opts)
  categories = unique({items.category});
  counts = struct('category', categories, 'passed', 0, 'failed', 0, 'deviations', 0);
  failures = {};
  deviated = {};
  for k = 1:numel(items)
    c = find(strcmp(categories, items(k).category));
    label = sprintf('corpus.txt:%d [%s] %s on %s', items(k).line, items(k).category, ...
                    items(k).expression, items(k).input);
    if isempty(outcome{k})
      counts(c).passed += 1;
      continue;
    end
    d = deviation_of(items(k), conformance_input(items(k).input), outcome{k}, deviations);
    if d > 0
      counts(c).deviations += 1;
      deviations(d).used += 1;
      deviated{end + 1} = sprintf('%s: %s (deviation: %s)', label, outcome{k}, deviations(d).reason);  %#ok<AGROW>
    else
      counts(c).failed += 1;
      failures{end + 1} = sprintf('%s: %s', label, outcome{k});  %#ok<AGROW>
    end
  end
  if opts.verbose && ~isempty(deviated)
    printf('  %s\n', deviated{:});
  end
  if ~opts.quiet && ~isempty(failures)
    printf('FAIL %s\n', failures{:});
  end
  for c = 1:numel(counts)
    printf('%-14s %5d passed, %4d failed, %4d deviations\n', [counts(c).category ':'], ...
           counts(c).passed, counts(c).failed, counts(c).deviations);
  end
  printf('%-14s %5d passed, %4d failed, %4d deviations (%d items)\n', 'total:', sum([counts.passed]), ...
         sum([counts.failed]), sum([counts.deviations]), numel(items));
  unused = find([deviations.used] == 0);
  if isempty(opts.filter) && ~isempty(unused)
    printf('deviations.txt entries that matched nothing: %s\n', strjoin({deviations(unused).pattern}, '; '));
  end
  result = struct('counts', counts, 'failures', {failures}, 'deviations', {deviated});
end
