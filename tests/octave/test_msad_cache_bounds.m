function test_msad_cache_bounds()
% The cache stays bounded: a closure over a value that changes on every call
% (a time-stepper's @(y) rhs(t, y)) reuses one plan that takes the value as an
% input, with the right f and J on every call, and memory does not grow with
% the number of calls; distinct functions beyond the cache's limit evict the
% least recently used plans; `clear msad_eval` empties the cache; errors
% thrown many times leak nothing; nonsense opts.threads is a clear error.
  clear msad_eval
  x = [0.5; -1.5; 2];
  rhs = @(t, y) [t * y(1)^2 + y(2); sin(t) .* y(2) .* y(3); y(1) - t .* y(3)];

  for k = 1:1000
    t = k / 1000;
    [f, J] = msad_eval(@(y) rhs(t, y), x);
  end
  rss_warm = resident_kb();
  for k = 1:10000
    t = 1 + k / 1000;
    [f, J] = msad_eval(@(y) rhs(t, y), x);
  end
  growth = resident_kb() - rss_warm;
  check_value(f, rhs(t, x), 1e-15, 'changing t: value');
  check_value(J, [2 * t * x(1), 1, 0; 0, sin(t) * x(3), sin(t) * x(2); 1, 0, -t], 1e-15, 'changing t: Jacobian');
  assert(growth < 2048, 'RSS grew by %d kB over 10000 calls after 1000', growth);
  assert(plans_cached(@(y) rhs(t, y), x) <= 2, 'one plan for the closure (and its first, folded one)');

  for k = 1:100
    g = str2func(sprintf('@(y) y.^2 + %d', k));
    f = msad_eval(g, x);
  end
  check_value(f, x.^2 + 100, 0, 'the 100th distinct function');
  assert(plans_cached(g, x) == 64, 'the cache keeps at most 64 plans');
  g = str2func('@(y) y.^2 + 1');
  check_value(msad_eval(g, x), x.^2 + 1, 0, 'an evicted function prepared again');

  clear msad_eval
  assert(plans_cached(g, x) == 1, 'clear msad_eval empties the cache');

  for k = 1:1000
    expect_error(@() msad_eval(@raises_error, [1; 2]), 'model:negative');
  end
  rss_warm = resident_kb();
  for k = 1:10000
    expect_error(@() msad_eval(@raises_error, [1; 2]), 'model:negative');
  end
  growth = resident_kb() - rss_warm;
  assert(growth < 1024, 'RSS grew by %d kB over 10000 errors after 1000', growth);

  expect_error(@() msad_eval(@sin, x, struct('threads', 1e9)), 'msad:badInput');
  expect_error(@() msad_eval(@sin, x, struct('threads', 0)), 'msad:badInput');
  [f, J] = msad_eval(@(y) sin(y), x, struct('threads', 256));
  check_value(J, diag(cos(x)), 1e-15, 'opts.threads = 256');
end

function kb = resident_kb()
  status = fileread('/proc/self/status');
  kb = str2double(regexp(status, 'VmRSS:\s*(\d+)', 'tokens', 'once'){1});
end

% How many plans msad_eval's cache holds after one more (verbose) call.
function count = plans_cached(fun, x)
  out = evalc('msad_eval(fun, x, struct(''verbose'', true));');
  count = str2double(regexp(out, 'msad: (\d+) plans cached', 'tokens', 'once'){1});
end

function expect_error(call, identifier)
  try
    call();
  catch err
    assert(strcmp(err.identifier, identifier), 'identifier %s, expected %s (%s)', err.identifier, identifier, err.message);
    return;
  end
  error('test:noError', 'expected an error %s', identifier);
end
