function test_msad_warnings()
% warning(...) in differentiated code reaches Octave's own warning machinery as if Octave had run the
% function: lastwarn (message and identifier) as after a direct call, once per msad_eval, only from the
% path taken, and warning('off', id) in the session or in the function silences it.
  state = warning();
  cleanup = onCleanup(@() warning(state));
  warning('off', 'backtrace');
  for x = {[1; 2], [-1; 2], [3; 1]}
    expected = last_warning_of(@() warns_on_sign(x{1}));
    assert(isequal(last_warning_of(@() msad_eval(@warns_on_sign, x{1})), expected), 'value call at %g', x{1}(1));
    [got, shown] = last_warning_of(@() jacobian_of(@warns_on_sign, x{1}));
    assert(isequal(got, expected), 'Jacobian call at %g: lastwarn %s', x{1}(1), strjoin(got, ' | '));
    assert(numel(strfind(shown, 'warning:')) == 1, 'one warning per call, shown: %s', shown);
  end
  assert(strcmp(warning('query', 'warns_on_sign:silenced').state, 'on'), 'the function turned its warning on again');
  warning('off', 'warns_on_sign:positive');
  assert(isequal(last_warning_of(@() msad_eval(@warns_on_sign, [1; 2])), {'', ''}), 'silenced in the session');
end

function J = jacobian_of(f, x)
  [~, J] = msad_eval(f, x);
end

function [last, shown] = last_warning_of(call)
  lastwarn('', '');
  shown = evalc('call();');
  [message, identifier] = lastwarn();
  last = {message, identifier};
end
