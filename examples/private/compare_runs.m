function comparison = compare_runs(titleText, reference, withMsad, tolerance)
% COMPARE_RUNS  Prints two solver runs side by side and checks that msad changed nothing but the cost.
%   comparison = compare_runs(titleText, reference, withMsad, tolerance)
%   takes two runs (structs with fields label, seconds, counts, solution;
%   the first field of counts is the solver's iteration measure, NaN means
%   not counted and prints as -), prints a table, and errors (msad:example)
%   unless the solutions agree to tolerance (relative to max(1, max|reference
%   solution|)) and the msad run took no more iterations. Returns both runs,
%   the speed-up and the solutions' difference.
  countNames = fieldnames(reference.counts);
  printf('\n%s\n', titleText);
  printf('  %-28s %10s', '', 'time [s]');
  printf(' %14s', strrep(countNames, '_', ' '){:});
  printf('\n');
  for run = {reference, withMsad}
    printf('  %-28s %10.3f', run{1}.label, run{1}.seconds);
    printf(' %14s', cellfun(@(name) count_text(run{1}.counts.(name)), countNames, 'UniformOutput', false){:});
    printf('\n');
  end
  speedup = reference.seconds / withMsad.seconds;
  difference = max(abs(withMsad.solution(:) - reference.solution(:)));
  printf('  speed-up %.2fx; max |solution difference| = %.3g\n', speedup, difference);

  scale = max(1, max(abs(reference.solution(:))));
  if ~(difference <= tolerance * scale)
    error('msad:example', '%s: the solutions differ by %g (allowed %g)', titleText, difference, tolerance * scale);
  end
  iterations = countNames{1};
  if withMsad.counts.(iterations) > reference.counts.(iterations)
    error('msad:example', '%s: msad took more %s (%d) than %s (%d)', titleText, iterations, ...
          withMsad.counts.(iterations), reference.label, reference.counts.(iterations));
  end
  comparison = struct('reference', reference, 'msad', withMsad, 'speedup', speedup, 'difference', difference);
end

function text = count_text(count)
  if isnan(count)
    text = '-';
  else
    text = sprintf('%d', count);
  end
end
