function print_usage()
% PRINT_USAGE  Stand-in used while the conformance suite runs: Octave's own
% formats the help text with makeinfo (a third of a second per call, and the
% suite makes hundreds of invalid calls on purpose). Only the error matters.
  error('Octave:invalid-fun-call', 'Invalid call');
end
