function test_fmad_builtin_coverage()
% Every builtin msad_eval supports (the names in docs/builtins.md) is
% classified in fmadtest_builtin_cases, and on an fmad object each one
% gives the value of the double computation with derivatives matching
% central differences, or the value alone for predicates and text, or a
% clear error (msad:fmad:unsupported naming the function and suggesting
% msad_eval) -- never a silent wrong answer or Octave's generic error.
% A name added to msad_eval fails this test until it is classified.
  fmadtest_setup;
  repo = fileparts(fileparts(fileparts(fileparts(mfilename('fullpath')))));
  documented = documented_builtins(fullfile(repo, 'docs', 'builtins.md'));
  cases = fmadtest_builtin_cases();
  classified = unique(cases(:, 1));
  unclassified = setdiff(documented, classified);
  if ~isempty(unclassified)
    error('fmadtest:unclassified', 'msad_eval builtins missing from fmadtest_builtin_cases: %s', ...
          strjoin(unclassified', ', '));
  end
  stale = setdiff(classified, documented);
  if ~isempty(stale)
    error('fmadtest:stale', 'fmadtest_builtin_cases names builtins msad_eval does not list: %s', ...
          strjoin(stale', ', '));
  end

  x0 = [0.3; -0.45; 0.7; 1.2];
  problems = {};
  for k = 1:size(cases, 1)
    problem = fmadtest_check_builtin_case(cases{k, :}, x0);
    if ~isempty(problem)
      problems{end+1} = problem;  %#ok<AGROW>
    end
  end
  if ~isempty(problems)
    error('fmadtest:builtins', '%d of %d cases failed:\n  %s', numel(problems), ...
          size(cases, 1), strjoin(problems, "\n  "));
  end
  if numel(documented) < 200
    error('fmadtest:parse', 'only %d names read from docs/builtins.md', numel(documented));
  end
end

function names = documented_builtins(file)
  % The table rows "| `name` | ..." and the list items "- `name`...".
  tokens = regexp(fileread(file), '(?m)^(?:\| |- )`(\w+)`', 'tokens');
  names = unique(cellfun(@(t) t{1}, tokens, 'UniformOutput', false))';
end
