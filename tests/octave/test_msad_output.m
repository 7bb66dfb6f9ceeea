function test_msad_output()
% Output of user code (fprintf, printf, disp, drawnow) appears exactly as Octave prints it, once per
% msad call whatever the mode (msad may run the code several times: sparsity detection, Hessians),
% and does not change the derivatives. fprintf to a file is a clear error.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  x = [0.7; -1.3; 2.1; 0.4];
  expected = evalc('prints_progress(x);');
  assert(~isempty(strfind(expected, 'progress 4')), 'the fixture prints');
  evalc('Jref = cs_jacobian(@prints_progress, x);');
  for options = {struct(), struct('mode', 'forward'), struct('mode', 'reverse'), struct('jacobian', 'sparse'), struct('sparsity', 'none')}
    printed = evalc('[~, J] = msad_eval(@prints_progress, x, options{1});');
    assert(strcmp(printed, expected), 'printed once, as Octave does: got\n%s\nexpected\n%s', printed, expected);
    check_jacobian(J, Jref, 1e-12, 'J with output');
  end
  scalar = @(y) sum(prints_progress(y));
  printed = evalc('[~, g, H] = msad_eval(scalar, x);');
  assert(strcmp(printed, expected), 'Hessian call prints once: got\n%s', printed);
  evalc('gref = cs_jacobian(scalar, x);');
  check_jacobian(g(:).', gref, 1e-12, 'gradient with output');
  printed = evalc('v = msad_eval(@prints_progress, x);');
  assert(strcmp(printed, expected), 'value-only call prints once');
  file = [tempname() '.txt'];
  expect_error(@() msad_eval(@(y) fprintf(fopen(file, 'w'), 'a') + y, x), 'msad:unsupported', 'file');
end
