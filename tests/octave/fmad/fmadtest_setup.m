function fmadtest_setup()
% Puts <repo>/matlab on the path by absolute name: run() changes into the
% test directory, which invalidates a relative addpath('matlab').
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(fileparts(fileparts(fileparts(here))), 'matlab'));
end
