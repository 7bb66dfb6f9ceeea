function text = bench_report(results, settings)
% BENCH_REPORT  Markdown tables of bench_problem results: ratios time(J+f by X) / time(f in Octave),
%   the status of each target of issue #11 (met / gap xN) and the correctness checks.
  lines = {'### Summary: msad (default options) against the targets', '', ...
           '| problem | n | f in Octave | msad / f | ratio target | sparse FD / msad | msad / hand-coded |', ...
           '|---|---|---|---|---|---|---|'};
  for r = results
    for s = r.sizes
      lines{end+1} = sprintf('| %s | %d | %s | %s | %s |', r.problem.name, s.n, duration(s.fSeconds), ...
                             ratio_cell(s, label_index(r, 'msad')), strjoin(target_cells(r, s), ' | '));
    end
  end
  for r = results
    lines = [lines, {''}, problem_section(r, settings)];
  end
  text = strjoin(lines, "\n");
end

function lines = problem_section(result, settings)
  timed = find(any(cell2mat(arrayfun(@(s) ~isnan(s.seconds), result.sizes(:), 'UniformOutput', false)), 1));
  targetHeaders = {'msad ratio target', 'sparse FD / msad', 'msad / hand-coded'};
  applies = any(cell2mat(arrayfun(@(s) ~cellfun(@isempty, target_cells(result, s)), result.sizes(:), ...
                                  'UniformOutput', false)), 1);
  header = [{'n', 'colours', 'f in Octave'}, result.labels(timed), {'msad first call'}, targetHeaders(applies)];
  lines = {['### ' result.problem.name], '', [result.problem.note ' ' reference_note(result)], '', ...
           ['| ' strjoin(header, ' | ') ' |'], ['|' repmat('---|', 1, numel(header))]};
  for s = result.sizes
    ratios = arrayfun(@(k) ratio_cell(s, k), timed, 'UniformOutput', false);
    targets = target_cells(result, s);
    msadFirst = sprintf('%.3g', s.firstSeconds(label_index(result, 'msad')) / s.fSeconds);
    cells = [{sprintf('%d', s.n), sprintf('%d', s.colours), duration(s.fSeconds)}, ratios, {msadFirst}, targets(applies)];
    lines{end+1} = ['| ' strjoin(cells, ' | ') ' |'];
  end
  lines = [lines, {''}, not_timed_notes(result), check_notes(result, settings)];
end

% The status of the three targets at one size ('' where a target does not apply).
function cells = target_cells(result, s)
  targets = result.problem.targets;
  msad = label_index(result, 'msad');
  cells = {'', '', ''};
  if isfield(targets, 'ratio')
    limit = targets.ratio;
    if is_function_handle(limit)
      limit = limit(s.n);
    end
    cells{1} = target_cell(s.seconds(msad) / s.fSeconds, '<=', limit, s.status{msad});
    cells{1} = regexprep(cells{1}, '^[^(]*\((.*)\)', '$1');   % the ratio has its own column
  end
  if isfield(targets, 'sparseFd')
    sparseFd = label_index(result, 'sparse FD');
    cells{2} = target_cell(s.seconds(sparseFd) / s.seconds(msad), '>=', targets.sparseFd, s.status{msad});
  end
  if isfield(targets, 'hand') && ~isempty(result.problem.hand)
    hand = label_index(result, 'hand');
    cells{3} = target_cell(s.seconds(msad) / s.seconds(hand), '<=', targets.hand, s.status{msad});
  end
end

% 'value (relation limit): met' or '... gap xN', N = how far value is from the limit.
function text = target_cell(value, relation, limit, msadStatus)
  if isnan(value)
    text = sprintf('%s %g: not measured', relation, limit);
    if strncmp(msadStatus, 'error', 5)
      text = sprintf('%s %g: msad fails', relation, limit);
    end
    return;
  end
  if strcmp(relation, '>=')
    gap = limit / value;
  else
    gap = value / limit;
  end
  if gap <= 1
    verdict = 'met';
  else
    verdict = sprintf('gap x%.3g', gap);
  end
  text = sprintf('%.3g (%s %g): %s', value, relation, limit, verdict);
end

function k = label_index(result, label)
  k = find(strcmp(result.labels, label));
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

% 'label (n = 40, 160)' for each distinct label of a per-size list, in order.
function text = by_size(labels, sizes)
  parts = {};
  while ~isempty(labels)
    same = strcmp(labels, labels{1});
    parts{end+1} = sprintf('%s (n = %s)', labels{1}, strjoin(arrayfun(@num2str, sizes(same), 'UniformOutput', false), ', '));
    [labels, sizes] = deal(labels(~same), sizes(~same));
  end
  text = strjoin(parts, '; ');
end

function text = reference_note(result)
  text = ['Reference Jacobian: ' by_size({result.sizes.reference}, [result.sizes.n]) '.'];
end

% One line per method: at which sizes it was not timed, and why.
function lines = not_timed_notes(result)
  lines = {};
  for k = 1:numel(result.labels)
    reasons = arrayfun(@(s) s.status{k}, result.sizes, 'UniformOutput', false);
    untimed = ~cellfun(@isempty, reasons);
    if any(untimed)
      lines{end+1} = sprintf('- %s not timed: %s', result.labels{k}, by_size(reasons(untimed), [result.sizes(untimed).n]));
    end
  end
end

function lines = check_notes(result, settings)
  worstJ = max(reshape([result.sizes.jDiff], numel(result.labels), []), [], 2);
  worstF = max(reshape([result.sizes.fDiff], numel(result.labels), []), [], 2);
  wrong = any(reshape([result.sizes.wrong], numel(result.labels), []), 2);
  checked = find(~isnan(worstJ));
  parts = arrayfun(@(k) sprintf('%s %.1e', result.labels{k}, worstJ(k)), checked, 'UniformOutput', false);
  lines = {sprintf('- Check: largest relative difference of J to the reference over all sizes: %s; of f to Octave''s f: %.1e.', ...
                   strjoin(parts(:).', ', '), max(worstF))};
  for k = find(wrong).'
    lines{end+1} = sprintf(['- **WRONG**: %s differs from the reference by %.1e in J or %.1e in f ' ...
                            '(tolerances: %g between exact methods, %g with finite differences): ' ...
                            'its timings are not valid.'], result.labels{k}, worstJ(k), worstF(k), ...
                           settings.tolerance.ad, settings.tolerance.fd);
  end
end
