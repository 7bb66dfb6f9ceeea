function enable_assignment_promotion()
% Octave only, once per session: registers the conversion that lets
%   y = zeros(n, 1);  y(i) = x(i)^2;   % x an fmad object
% promote y to fmad as MATLAB does (see fmad_octave_assign.cc). The glue is
% compiled with mkoctfile on first use; without a compiler a warning says
% how to preallocate instead.
  persistent attempted
  if ~isempty(attempted) || ~exist('OCTAVE_VERSION', 'builtin')
    return                           % MATLAB calls fmad's subsasgn by itself
  end
  attempted = true;
  here = fileparts(mfilename('fullpath'));
  if ~exist(fullfile(here, 'fmad_octave_assign.oct'), 'file')
    try
      [output, status] = mkoctfile('-s', '-o', fullfile(here, 'fmad_octave_assign.oct'), ...
                                   fullfile(here, 'fmad_octave_assign.cc'));
    catch err
      output = err.message;
      status = 1;
    end
    rehash();
    if status ~= 0
      warning('fmad:noAssignmentPromotion', ...
              ['fmad: could not build the Octave glue with mkoctfile %s; assigning fmad ' ...
               'values into a double array (y = zeros(n,1); y(i) = ...) will fail: ' ...
               'preallocate with zeros(n, 1, ''like'', x) instead'], strtrim(output));
      return
    end
  end
  fmad_octave_assign(fmad(0), zeros(2), 0, 1:3, true(2), true, complex(zeros(2), 1), 1i, ...
                     sparse(2, 2), single(zeros(2)), single(0));
end
