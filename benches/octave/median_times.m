function seconds = median_times(runs, firstCalls, settings)
% MEDIAN_TIMES  Median time of one call of each runs{k}(), sampled in interleaved rounds.
%   seconds = median_times(runs, firstCalls, settings): runs{k} has just been called once
%   (its warm-up: msad prepares and caches its code on the first call, Octave parses
%   files), taking firstCalls(k) seconds. Then, round after round, every run that still
%   needs samples takes one, so that a burst of load from other processes lands on all the
%   methods of a round alike, and the median discards it. A run needs settings.minSamples
%   samples and settings.minTotal seconds of them (at most settings.maxSamples); a sample
%   repeats a fast call until it lasts settings.minSample seconds, so that it is timed far
%   above the clock's resolution. A call slower than settings.slowCall seconds takes
%   settings.slowSamples samples in all, counting its first call (a cold start costs
%   milliseconds, nothing beside such a call); one slower than settings.singleCall, that first
%   call alone. The clock is settings.clock (process CPU time by default, see bench_settings).
  count = numel(runs);
  samples = cell(count, 1);
  [wanted, minTotal, repeats, total] = deal(zeros(count, 1));
  for k = 1:count
    if firstCalls(k) > settings.slowCall
      samples{k} = firstCalls(k);
      wanted(k) = settings.slowSamples;
      if firstCalls(k) > settings.singleCall
        wanted(k) = 1;
      end
      repeats(k) = 1;
    else
      wanted(k) = settings.minSamples;
      minTotal(k) = settings.minTotal;
      % A second call estimates better than the first, which may include preparation.
      repeats(k) = max(1, ceil(settings.minSample / max(time_once(runs{k}, settings.clock), 1e-7)));
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
