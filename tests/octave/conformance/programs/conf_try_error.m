function r = conf_try_error(x)
% conformance: program scalar negscalar zero row
% error() with and without identifiers caught from a subfunction, nested try, rethrow, error(struct).
  r = '';
  for k = 1:3
    try
      check(x, k);
      r = [r 'ok;'];
    catch err
      r = [r err.identifier '/' err.message ';'];
    end
  end
  try
    try
      error('inner:id', 'inner %d', numel(x));
    catch first
      error('outer:id', '%s then outer', first.message);
    end
  catch second
    r = [r second.identifier ':' second.message];
  end
  try
    rethrow(struct('message', 'again', 'identifier', 'my:again'));
  catch third
    r = [r ';' third.identifier ' ' third.message];
  end
  error(struct('message', '', 'identifier', 'not:raised'));
end

function check(x, k)
  if k == 1 && any(x < 0)
    error('check:negative', 'negative entry %g', min(x));
  elseif k == 2
    error('plain message with %d', k);
  elseif k == 3 && numel(x) > 1
    y = x(numel(x) + 1);
  end
end
