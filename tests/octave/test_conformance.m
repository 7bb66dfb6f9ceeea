function test_conformance()
% Differential conformance of msad against Octave: every item of
% conformance/corpus.txt must agree or be a documented deviation
% (conformance/deviations.txt). Details: conformance/run_conformance.m.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'conformance'));
  result = run_conformance('quiet', true);
  if ~isempty(result.failures)
    error('conformance:mismatch', '%d conformance mismatches:\n%s', numel(result.failures), ...
          strjoin(result.failures(1:min(end, 40)), "\n"));
  end
end
