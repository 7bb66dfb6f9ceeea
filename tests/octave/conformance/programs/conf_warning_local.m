function r = conf_warning_local(x)
% conformance: program scalar row
% warning(STATE, id, 'local'): the state holds inside the function that set it (and the functions it
% calls) and the old state is back when that function returns, also when it ends with an error.
  lastwarn('');
  before = warning('query', 'conf:local');
  inside = quiet_sum(x);
  after = warning('query', 'conf:local');
  [m1, i1] = lastwarn();
  try
    failing(x);
  catch
  end
  after_error = warning('query', 'conf:strictlocal');
  warning('on', 'conf:kept');
  nested_off(x);
  kept = warning('query', 'conf:kept');
  r = [before.state '|' inside '|' after.state '|' m1 '|' i1 '|' after_error.state '|' kept.state];
end

function s = quiet_sum(x)
  warning('off', 'conf:local', 'local');
  s = warn_and_query(x);
end

function s = warn_and_query(x)
  warning('conf:local', 'hidden %g', sum(x));
  q = warning('query', 'conf:local');
  s = q.state;
end

function failing(x)
  warning('error', 'conf:strictlocal', 'local');
  error('conf:fail', 'failed at %g', x(1));
end

function nested_off(x)
  warning('off', 'conf:kept', 'local');
  warning('off', 'conf:kept', 'local');
  warning('conf:kept', 'quiet %g', x(1));
end
