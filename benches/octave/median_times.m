function seconds = median_times(runs, settings, firstCalls)
% MEDIAN_TIMES  Median time of one call of each runs{k}(), sampled in interleaved rounds.
%   seconds = median_times(runs, settings, firstCalls): each runs{k} has been called once
%   already, taking firstCalls(k) seconds. That call counts as a sample when it was slow
%   (over settings.slowCall) and firstCalls(k) is not NaN; NaN marks a cold start that must
%   not count (msad prepares its code and detects the sparsity pattern on its first call,
%   which can take far longer than later calls). Otherwise a second call is the first
%   sample and sets how many calls a sample makes: a fast call is repeated until a sample
%   lasts settings.minSample seconds, far above the clock's resolution. Then, round after
%   round, every run that still needs samples takes one, so that a burst of load from other
%   processes lands on all the methods of a round alike, and the median discards it. A run
%   needs settings.minSamples samples and settings.minTotal seconds of them (at most
%   settings.maxSamples); a call slower than settings.slowCall seconds needs
%   settings.slowSamples samples, one slower than settings.singleCall that first sample only.
%   The clock is settings.clock (process CPU time by default, see bench_settings).
  count = numel(runs);
  samples = cell(count, 1);
  [wanted, minTotal, repeats, total] = deal(zeros(count, 1));
  for k = 1:count
    if firstCalls(k) > settings.slowCall
      samples{k} = firstCalls(k);
    else
      samples{k} = time_once(runs{k}, settings.clock);
    end
    total(k) = samples{k};
    [wanted(k), minTotal(k), repeats(k)] = deal(settings.minSamples, settings.minTotal, 1);
    if samples{k} > settings.singleCall
      wanted(k) = 1;
    elseif samples{k} > settings.slowCall
      wanted(k) = settings.slowSamples;
    else
      repeats(k) = max(1, ceil(settings.minSample / max(samples{k}, 1e-7)));
      [samples{k}, total(k)] = deal([], 0);   % too short to count: sampled again below, repeated
    end
  end
  active = still_sampling(samples, wanted, total, minTotal, settings.maxSamples);
  while ~isempty(active)
    for k = active
      elapsed = time_once(@() repeat(runs{k}, repeats(k)), settings.clock);
      samples{k}(end+1) = elapsed / repeats(k);
      total(k) += elapsed;
    end
    active = still_sampling(samples, wanted, total, minTotal, settings.maxSamples);
  end
  seconds = cellfun(@median, samples);
end

% The runs that need another sample (an anonymous function would see the state of its creation).
function active = still_sampling(samples, wanted, total, minTotal, maxSamples)
  counts = cellfun(@numel, samples);
  active = find(counts < maxSamples & (counts < wanted | total < minTotal)).';
end

function seconds = time_once(run, clock)
  started = clock();
  run();
  seconds = clock() - started;
end

function repeat(run, count)
  for k = 1:count
    run();
  end
end
