function fmadtest_setup()
% Puts <repo>/matlab and the shared Octave test helpers and reference
% problems on the path by absolute name (run() changes into the test
% directory, which invalidates a relative addpath('matlab')).
  octave_tests = fileparts(fileparts(mfilename('fullpath')));
  repo = fileparts(fileparts(octave_tests));
  addpath(fullfile(repo, 'matlab'), fullfile(octave_tests, 'helpers'), ...
          fullfile(octave_tests, 'problems'));
end
