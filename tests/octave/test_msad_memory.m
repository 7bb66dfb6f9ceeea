function test_msad_memory()
% Repeated calls hold no more memory than a few: RSS after 1e5 calls of a small function equals RSS
% after 1e3 (within 4 MB), likewise 1700 against 700 calls of an n = 1e4 function (its buffer pool
% fills during the first few hundred). An anonymous handle still costs about 160 bytes per call,
% outside the engine (the issue's note has what was ruled out).
  if ~exist('/proc/self/status', 'file')
    return;  % RSS is read from Linux's /proc.
  end
  x = [0.3; 0.7; 1.1];
  check_flat(@() msad_eval(@small_pair, x), 1e3, 1e5, 4, 'small function');

  n = 1e4;
  y = 1 + 0.1 * sin((1:n)');
  check_flat(@() msad_eval(@brusselator_rhs_vec, y), 700, 1700, 4, 'n = 1e4 Brusselator');
end

function check_flat(call, first, total, tolerance, label)
  [~, ~] = call();
  for k = 1:first
    [~, ~] = call();
  end
  after_first = rss_mb();
  for k = first + 1:total
    [~, ~] = call();
  end
  growth = rss_mb() - after_first;
  assert(growth < tolerance, '%s: RSS grew by %.1f MB from call %d to call %d', label, growth, first, total);
end

function mb = rss_mb()
  status = fileread('/proc/self/status');
  kb = str2double(regexp(status, 'VmRSS:\s*(\d+)', 'tokens', 'once'){1});
  mb = kb / 1024;
end
