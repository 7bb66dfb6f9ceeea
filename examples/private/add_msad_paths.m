function add_msad_paths()
% ADD_MSAD_PATHS  Puts msad (matlab/) and the reference problems (tests/octave/problems) on the path.
  root = fileparts(fileparts(fileparts(mfilename('fullpath'))));
  addpath(fullfile(root, 'matlab'));
  addpath(fullfile(root, 'tests', 'octave', 'problems'));
end
