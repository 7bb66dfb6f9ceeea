function result = bench_problem(problem, settings)
% BENCH_PROBLEM  Times f and every Jacobian method of bench_methods at each size of one problem.
%   result = bench_problem(problem, settings): problem from bench_problems, settings from
%   bench_settings. result.sizes(k) holds, for size n: fSeconds, and per method (in
%   result.labels order): firstSeconds (its first call, after which its J and f are checked:
%   for msad that call prepares the code and detects the sparsity pattern), seconds (the
%   median of later calls, NaN if not run), status ('' or why it was not timed), jDiff and
%   fDiff (largest relative difference of J to the reference Jacobian, NaN for a method that
%   computes f only, and of f to Octave's f), wrong (true when that difference is beyond the
%   method's tolerance) and reference (the label of the method that gave the reference J:
%   the first to succeed). f and all the methods are then timed together (median_times).
%   A method that fails, or whose next call is predicted to exceed settings.capSeconds, is
%   not run at the larger sizes either.
  result = struct('problem', problem, 'labels', {{}}, 'sizes', []);
  history = struct();   % label -> [n, seconds] of the sizes measured so far, bytes of a full J
  stopped = struct();   % label -> why it is no longer run
  for n = problem.sizes
    sizeStarted = cputime;
    x = problem.init(n);
    f = problem.fun(x);
    if isempty(problem.pattern)
      pattern = sparse(true(numel(f), n));
    else
      pattern = problem.pattern(n);
    end
    colours = greedy_column_colouring(pattern);
    methods = bench_methods(problem, pattern, colours);
    result.labels = {methods.label};
    entry = struct('n', n, 'colours', max(colours), 'fSeconds', NaN, ...
                   'seconds', NaN(1, numel(methods)), 'status', {repmat({''}, 1, numel(methods))}, ...
                   'jDiff', NaN(1, numel(methods)), 'fDiff', NaN(1, numel(methods)), ...
                   'wrong', false(1, numel(methods)), 'reference', 'none', ...
                   'firstSeconds', NaN(1, numel(methods)));
    reference = [];
    for k = 1:numel(methods)
      m = methods(k);
      key = matlab.lang.makeValidName(m.label);
      entry.status{k} = not_run_reason(m, key, n, numel(f), history, stopped, settings);
      if ~isempty(entry.status{k})
        continue;
      end
      try
        started = settings.clock();
        [J, fByMethod] = m.run(x);
        entry.firstSeconds(k) = settings.clock() - started;
      catch failure
        entry.status{k} = ['error: ' strsplit(failure.message, "\n"){1}];
        stopped.(key) = sprintf('not run after failing at n = %d', n);
        continue;
      end
      entry.fDiff(k) = value_difference(fByMethod, f);
      if ~isempty(J) && isempty(reference)
        [reference, referenceKind] = deal(J, m.kind);
        entry.reference = m.label;
      end
      entry.wrong(k) = ~(entry.fDiff(k) <= settings.tolerance.ad);
      if ~strcmp(m.kind, 'value')
        entry.jDiff(k) = jacobian_difference(J, reference);
        tolerance = max(settings.tolerance.(m.kind), settings.tolerance.(referenceKind));
        entry.wrong(k) = entry.wrong(k) || ~(entry.jDiff(k) <= tolerance);
      end
      if ~isfield(history, key)
        history.(key) = struct('points', zeros(0, 2), 'fullBytes', 0);
      end
      history.(key).fullBytes = 8 * numel(J) * ~issparse(J);
      clear J fByMethod;
    end
    timed = find(~isnan(entry.firstSeconds));
    runs = [{@() problem.fun(x)}, arrayfun(@(k) @() methods(k).run(x), timed, 'UniformOutput', false)];
    firstCalls = entry.firstSeconds(timed);
    firstCalls([methods(timed).cold]) = NaN;
    seconds = median_times(runs, settings, [NaN, firstCalls]);   % f's first call may parse its file
    entry.fSeconds = seconds(1);
    entry.seconds(timed) = seconds(2:end);
    for k = timed
      key = matlab.lang.makeValidName(methods(k).label);
      % Predictions extrapolate the slowest call, the first one included.
      history.(key).points(end+1, :) = [n, max(entry.seconds(k), entry.firstSeconds(k))];
    end
    result.sizes = [result.sizes, entry];
    printf('  %-36s n = %6d (%3.0f s): f %.3g ms; %s\n', problem.name, n, cputime - sizeStarted, ...
           1e3 * entry.fSeconds, strjoin(cellfun(@(label, t) sprintf('%s %.3g', label, t), result.labels, ...
                           num2cell(entry.seconds / entry.fSeconds), 'UniformOutput', false), ', '));
    fflush(stdout);
  end
end

function reason = not_run_reason(m, key, n, m_rows, history, stopped, settings)
  reason = m.skip;
  if ~isempty(reason)
    return;
  end
  if isfield(stopped, key)
    reason = stopped.(key);
  elseif isfield(history, key) && ~isempty(history.(key).points)
    points = history.(key).points;
    exponent = m.growth;
    if rows(points) >= 2
      exponent = min(max(log(points(end, 2) / points(end-1, 2)) / log(points(end, 1) / points(end-1, 1)), 1), 3);
    end
    predicted = points(end, 2) * (n / points(end, 1))^exponent;
    denseBytes = history.(key).fullBytes > 0 && 8 * m_rows * n > settings.denseBytesCap;
    if predicted > settings.capSeconds
      reason = sprintf('predicted %.0f s > %g s cap', predicted, settings.capSeconds);
    elseif denseBytes
      reason = sprintf('dense J would take %.1f GB', 8 * m_rows * n / 2^30);
    end
  end
end

function difference = value_difference(value, expected)
  if ~isequal(numel(value), numel(expected))
    difference = Inf;
  else
    difference = max(abs(value(:) - expected(:))) / max(max(abs(expected(:))), realmin);
  end
end
