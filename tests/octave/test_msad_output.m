function test_msad_output()
% Output of user code (fprintf, printf, disp, display, statements not ended by ';', toc, drawnow)
% appears exactly as Octave prints it, once per
% msad call whatever the mode (msad may run the code several times: sparsity detection, Hessians),
% and does not change the derivatives. fprintf to a file is a clear error.
  % Octave's parse-time warnings (missing semicolons, +=; other tests of the suite turn some on) are
  % Octave's only, since msad parses the files itself: off while the fixtures run.
  states = warning();
  restore = onCleanup(@() warning(states));
  warning('off', 'all');
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
  % display, statements not ended by ';' and tic/toc: printed as Octave prints them, once per call;
  % the elapsed times (different in every run) are replaced by X before comparing.
  started = tic;
  timed = @(y) shows_and_times(y, started);
  shown = evalc('timed(x);');
  assert(~isempty(strfind(shown, 'w =')) && ~isempty(strfind(shown, 'n = 4')), 'the fixture shows');
  expected = strip_times(shown);
  evalc('Jref = cs_jacobian(timed, x);');
  for options = {struct(), struct('mode', 'forward'), struct('mode', 'reverse'), struct('jacobian', 'sparse')}
    printed = evalc('[v, J] = msad_eval(timed, x, options{1});');
    assert(strcmp(strip_times(printed), expected), 'shown once, as Octave does: got\n%s\nexpected\n%s', printed, expected);
    evalc('reference = timed(x);');
    check_value(v, reference, 1e-14, 'value with tic/toc');
    check_jacobian(J, Jref, 1e-12, 'J with tic/toc');
  end
  [~, ~, H] = evalc_free(@(y) sum(timed(y)), x);
  evalc('Href = gradient_differences(@(y) sum(timed(y)), x);');
  check_jacobian(H, Href, 1e-6, 'H with tic/toc');
  printed = evalc('msad_eval(@(y) y * toc(tic), x);');
  assert(isempty(printed), 'toc with an output prints nothing');
  printed = evalc('msad_eval(@prints_elapsed, x);');
  assert(~isempty(regexp(printed, '^Elapsed time is [0-9.e+-]+ seconds\.\n$', 'once')), 'toc prints once: %s', printed);
  assert(isa(msad_eval(@(y) tic, x), 'uint64'), 'tic gives a uint64 id');
  expect_error(@() msad_eval(@(y) y * toc, x), 'msad:unsupported', 'toc');
  file = [tempname() '.txt'];
  expect_error(@() msad_eval(@(y) fprintf(fopen(file, 'w'), 'a') + y, x), 'msad:unsupported', 'file');
end

function text = strip_times(text)
  text = regexprep(text, '[0-9.]+(e[-+][0-9]+)?', 'X');
end

function varargout = evalc_free(f, x)
% msad_eval with the output of f kept off the screen.
  [~, varargout{1:nargout}] = evalc('msad_eval(f, x)');
end
