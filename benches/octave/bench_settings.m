function settings = bench_settings()
% BENCH_SETTINGS  Timing rules of the benchmark run, from the environment.
%   MSAD_BENCH_QUICK=1  two smallest sizes per problem and a 2 s cap (smoke test)
%   MSAD_BENCH_CAP=s    skip a method at a size where its call is predicted to take over
%                       s seconds (default 20), extrapolating its last two sizes
%   MSAD_BENCH_OUT=file also write the Markdown tables there
%   MSAD_BENCH_ONLY=re  only the problems whose name matches the regular expression
%   MSAD_BENCH_MAXN=n   only sizes up to n
%   MSAD_BENCH_CLOCK=wall  time wall-clock instead of process CPU time. CPU time is the
%                       default: it is what the literature's CPU(J+f)/CPU(f) figures count, and
%                       it does not count the time other processes take on a shared machine.
%                       Use wall once msad runs threads (CPU time would add theirs up).
  settings.quick = strcmp(getenv('MSAD_BENCH_QUICK'), '1');
  settings.capSeconds = str2double(getenv('MSAD_BENCH_CAP'));
  if isnan(settings.capSeconds)
    settings.capSeconds = 20 - 18 * settings.quick;
  end
  settings.output = getenv('MSAD_BENCH_OUT');
  settings.only = getenv('MSAD_BENCH_ONLY');
  settings.maxN = str2double(getenv('MSAD_BENCH_MAXN'));   % NaN: no limit
  settings.clockName = 'cpu';
  settings.clock = @cputime;
  if strcmp(getenv('MSAD_BENCH_CLOCK'), 'wall')
    settings.clockName = 'wall';
    settings.clock = @() 1e-6 * double(tic());   % tic's value counts microseconds
  end
  settings.minSample = 5e-3;     % one sample lasts at least this long
  settings.minSamples = 5;
  settings.maxSamples = 25;
  settings.minTotal = 0.2;       % seconds of samples per timing, at least
  settings.slowCall = 2;         % calls slower than this get settings.slowSamples samples
  settings.slowSamples = 2;
  settings.singleCall = 8;       % calls slower than this are timed once
  settings.denseBytesCap = 2^30; % do not ask for a dense Jacobian larger than this
  % Largest relative difference to the reference Jacobian that passes: rounding for AD;
  % for FD, wrong answers (O(1) differences) but not truncation error, which reaches
  % 6e-2 for forward differences on Burgers' mesh nodes at n = 2048.
  settings.tolerance = struct('ad', 1e-10, 'fd', 0.1);
end
