function test_msad_interrupt()
% Ctrl-C stops msad_eval in an endless loop as it stops Octave's own code, and the next call works
% (its prepared code came from the same cache). A second, interactive Octave runs the calls
% (helpers/interrupt_session.sh): a script cannot interrupt itself.
  helper = fullfile(fileparts(mfilename('fullpath')), 'helpers', 'interrupt_session.sh');
  tic;
  [status, output] = system(sprintf('bash "%s"', helper));
  assert(status == 0, 'the session failed with status %d:\n%s', status, output);
  assert(~isempty(strfind(output, 'after: 4 1')), 'no result after the interrupt:\n%s', output);
  assert(toc < 30, 'the session took %g s', toc);
end
