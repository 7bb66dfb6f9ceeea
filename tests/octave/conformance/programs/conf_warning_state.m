function r = conf_warning_state(x)
% conformance: program scalar row
% warning states: query, off/on/error with the old state returned and restored, 'all', lastwarn.
  lastwarn('');
  old = warning('off', 'conf:hidden');
  warning('conf:hidden', 'hidden %d', numel(x));
  [m1, i1] = lastwarn();
  q = warning('query', 'conf:hidden');
  warning(old);
  q2 = warning('query', 'conf:hidden');
  warning('error', 'conf:strict');
  try
    warning('conf:strict', 'strict %g', x(1));
    caught = 'none';
  catch err
    caught = [err.identifier ' ' err.message];
  end
  warning('on', 'conf:strict');
  all_states = warning('off', 'all');
  warning('conf:any', 'quiet');
  [m2, i2] = lastwarn();
  q3 = warning('query', 'conf:other');
  warning(all_states);
  q4 = warning('query', 'conf:other');
  lastwarn('set by hand', 'conf:hand');
  [m3, i3] = lastwarn();
  r = [m1 '|' i1 '|' q.state '|' q2.state '|' caught '|' m2 '|' i2 '|' q3.state '|' q4.state '|' m3 '|' i3 '|' ...
       num2str(numel(all_states) > 1)];
end
