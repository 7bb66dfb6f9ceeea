function test_msad_isargout()
% isargout in differentiated code (Octave's unique.m uses it): values as Octave's for every number of
% outputs asked for, and exact Jacobians through the outputs computed only when asked for.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  x = [0.7; -1.3; 2.1; 1.6];
  first = @(y) outputs_asked(y);
  check_value(msad_eval(first, x), first(x), 0, 'one output');
  second = @outputs_second;
  [v, J] = msad_eval(second, x);
  check_value(v, second(x), 0, 'two outputs');
  check_jacobian(J, cs_jacobian(second, x), 1e-13, 'two outputs');
  flags = @outputs_third;
  check_value(msad_eval(flags, x), flags(x), 0, 'which outputs were asked for');
  % unique with its index outputs: the derivative follows the elements it picks.
  picked = @unique_picks;
  for options = {struct(), struct('mode', 'reverse')}
    [v, J] = msad_eval(picked, [x; 3.4; -1.3], options{1});
    check_value(v, picked([x; 3.4; -1.3]), 0, 'unique picks');
    check_jacobian(J, cs_jacobian(picked, [x; 3.4; -1.3]), 1e-13, 'unique picks');
  end
end

