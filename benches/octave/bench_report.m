function text = bench_report(results, settings)
% BENCH_REPORT  Markdown tables of bench_problem results: ratios time(J+f by X) / time(f in Octave),
%   the status of each target of issue #11 (met / gap xN) and the correctness checks.
  lines = {'### Summary: msad (default options) against the targets', '', ...
           '| problem | n | f in Octave | msad / f | target | status |', '|---|---|---|---|---|---|'};
  for r = results
    lines = [lines, summary_rows(r)];
  end
  for r = results
    lines = [lines, {''}, problem_section(r, settings)];
  end
  text = strjoin(lines, "\n");
end

function rows = summary_rows(result)
  rows = {};
  msad = find(strcmp(result.labels, 'msad'));
  for s = result.sizes
    [target, status] = ratio_status(result.problem.targets, s, msad);
    rows{end+1} = sprintf('| %s | %d | %s | %s | %s | %s |', result.problem.name, s.n, ...
                          duration(s.fSeconds), ratio_cell(s, msad), target, status);
  end
end

function lines = problem_section(result, settings)
  problem = result.problem;
  timed = find(any(cell2mat(arrayfun(@(s) ~isnan(s.seconds), result.sizes(:), 'UniformOutput', false)), 1));
  msad = find(strcmp(result.labels, 'msad'));
  targets = problem.targets;
  header = [{'n', 'colours', 'f in Octave'}, result.labels(timed)];
  if isfield(targets, 'ratio')
    header{end+1} = 'msad target';
  end
  if isfield(targets, 'sparseFd')
    header{end+1} = sprintf('sparse FD / msad (>= %g)', targets.sparseFd);
  end
  if isfield(targets, 'hand') && ~isempty(problem.hand)
    header{end+1} = sprintf('msad / hand (<= %g)', targets.hand);
  end
  lines = {['### ' problem.name], '', [problem.note ' Reference Jacobian: ' result.reference '.'], '', ...
           ['| ' strjoin(header, ' | ') ' |'], ['|' repmat('---|', 1, numel(header))]};
  for s = result.sizes
    cells = [{sprintf('%d', s.n), sprintf('%d', s.colours), duration(s.fSeconds)}, ...
             arrayfun(@(k) ratio_cell(s, k), timed, 'UniformOutput', false)];
    if isfield(targets, 'ratio')
      [target, status] = ratio_status(targets, s, msad);
      cells{end+1} = [target ' ' status];
    end
    if isfield(targets, 'sparseFd')
      cells{end+1} = speedup_cell(s, find(strcmp(result.labels, 'sparse FD')), msad, targets.sparseFd, true);
    end
    if isfield(targets, 'hand') && ~isempty(problem.hand)
      cells{end+1} = speedup_cell(s, msad, find(strcmp(result.labels, 'hand')), targets.hand, false);
    end
    lines{end+1} = ['| ' strjoin(cells, ' | ') ' |'];
  end
  lines = [lines, {''}, not_timed_notes(result), check_notes(result, settings)];
end

function [target, status] = ratio_status(targets, s, msad)
  target = '';
  status = '';
  if ~isfield(targets, 'ratio')
    return;
  end
  limit = targets.ratio;
  if is_function_handle(limit)
    limit = limit(s.n);
  end
  target = sprintf('<= %g', limit);
  status = verdict(s.seconds(msad) / s.fSeconds, limit, false, s.status{msad});
end

function text = speedup_cell(s, numerator, denominator, limit, atLeast)
  if isempty(numerator) || isempty(denominator)
    text = '';
    return;
  end
  value = s.seconds(numerator) / s.seconds(denominator);
  text = sprintf('%.3g %s', value, verdict(value, limit, atLeast, ''));
end

function text = verdict(value, limit, atLeast, why)
  if isnan(value)
    text = 'not measured';
    if strncmp(why, 'error', 5)
      text = 'fails';
    end
  elseif (atLeast && value >= limit) || (~atLeast && value <= limit)
    text = 'met';
  elseif atLeast
    text = sprintf('gap x%.2g', limit / value);
  else
    text = sprintf('gap x%.2g', value / limit);
  end
end

function text = ratio_cell(s, k)
  if isnan(s.seconds(k))
    text = '-';
    if strncmp(s.status{k}, 'error', 5)
      text = 'error';
    end
  else
    text = sprintf('%.3g', s.seconds(k) / s.fSeconds);
    if s.wrong(k)
      text = [text ' WRONG'];
    end
  end
end

function text = duration(seconds)
  if seconds < 1e-3
    text = sprintf('%.3g us', 1e6 * seconds);
  elseif seconds < 1
    text = sprintf('%.3g ms', 1e3 * seconds);
  else
    text = sprintf('%.3g s', seconds);
  end
end

% One line per method and reason: at which sizes it was not timed, and why.
function lines = not_timed_notes(result)
  lines = {};
  for k = 1:numel(result.labels)
    reasons = arrayfun(@(s) s.status{k}, result.sizes, 'UniformOutput', false);
    sizes = [result.sizes.n];
    while any(~cellfun(@isempty, reasons))
      reason = reasons{find(~cellfun(@isempty, reasons), 1)};
      same = strcmp(reasons, reason);
      lines{end+1} = sprintf('- %s not timed at n = %s: %s', result.labels{k}, ...
                             strjoin(arrayfun(@num2str, sizes(same), 'UniformOutput', false), ', '), reason);
      reasons(same) = {''};
    end
  end
end

function lines = check_notes(result, settings)
  worstJ = max(reshape([result.sizes.jDiff], numel(result.labels), []), [], 2);
  worstF = max(reshape([result.sizes.fDiff], numel(result.labels), []), [], 2);
  wrong = any(reshape([result.sizes.wrong], numel(result.labels), []), 2);
  checked = find(~isnan(worstJ));
  parts = arrayfun(@(k) sprintf('%s %.1e', result.labels{k}, worstJ(k)), checked, 'UniformOutput', false);
  lines = {sprintf('- Check: largest relative difference of J to %s over all sizes: %s; of f to Octave''s f: %.1e.', ...
                   result.reference, strjoin(parts(:).', ', '), max(worstF))};
  for k = find(wrong).'
    lines{end+1} = sprintf(['- **WRONG**: %s differs from the reference by %.1e in J or %.1e in f ' ...
                            '(tolerances: %g between exact methods, %g with finite differences): ' ...
                            'its timings are not valid.'], result.labels{k}, worstJ(k), worstF(k), ...
                           settings.tolerance.ad, settings.tolerance.fd);
  end
end
