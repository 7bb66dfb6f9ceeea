function [seconds, samples] = median_time(run, settings, firstCall)
% MEDIAN_TIME  Median time of one call run(), over several samples.
%   [seconds, samples] = median_time(run, settings) makes one warm-up call (msad
%   prepares and caches its code on the first call, Octave parses files), then takes
%   samples until both settings.minSamples samples and settings.minTotal seconds are
%   reached (at most settings.maxSamples). A sample repeats the call until it lasts
%   settings.minSample seconds, so that fast calls are timed far above the clock's
%   resolution. median_time(run, settings, firstCall) is for a run() just called once,
%   taking firstCall seconds: that call was the warm-up. A call slower than
%   settings.slowCall seconds is timed settings.slowSamples times in all, counting that
%   first call (a cold start costs milliseconds, nothing beside such a call); a call slower
%   than settings.singleCall seconds is timed by that first call alone.
%   The clock is settings.clock (process CPU time by default, see bench_settings).
  if nargin < 3
    firstCall = time_once(run, settings.clock);
  end
  if firstCall > settings.slowCall
    times = firstCall;
    wanted = settings.slowSamples;
    if firstCall > settings.singleCall
      wanted = 1;
    end
    minTotal = 0;
    repeats = 1;
  else
    times = [];
    wanted = settings.minSamples;
    minTotal = settings.minTotal;
    repeats = max(1, ceil(settings.minSample / max(time_once(run, settings.clock), 1e-7)));
  end
  total = 0;
  while numel(times) < settings.maxSamples && (numel(times) < wanted || total < minTotal)
    elapsed = time_once(@() repeat(run, repeats), settings.clock);
    times(end+1) = elapsed / repeats;
    total += elapsed;
  end
  seconds = median(times);
  samples = numel(times);
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
