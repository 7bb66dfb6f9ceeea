function r = conf_try_lasterr(x)
% conformance: program scalar row col
% lasterr after caught errors: message and identifier of the latest.
  try
    error('first:id', 'first %d', numel(x));
  catch
  end
  [msg, id] = lasterr();
  try
    y = x(numel(x) + 2);
  catch
    msg = [msg '|' lasterr()];
  end
  r = [msg '|' id];
end
