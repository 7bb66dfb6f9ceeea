function test_msad_unsupported()
% An unsupported builtin on the active input (schur, in the fixture
% calls_schur_on_input.m) raises msad:unsupported naming the file and the
% line:col of the call; Octave survives and msad_eval keeps working.
% (If schur ever gets a derivative rule, point the fixture at another builtin.)
  fixture = which('calls_schur_on_input');
  [~, base, extension] = fileparts(fixture);
  fileName = [base, extension];
  sourceLines = strsplit(fileread(fixture), sprintf('\n'));
  line = find(~cellfun(@isempty, strfind(sourceLines, 'schur(shifted)')), 1);
  column = strfind(sourceLines{line}, 'schur(shifted)');
  position = sprintf('%d:%d', line, column);

  x = [1; 2; 3];
  for attempt = 1:2  % the second attempt must not hit a poisoned cache
    try
      msad_eval(@calls_schur_on_input, x);
      error('test:noError', 'msad_eval accepted schur on an active input');
    catch err
      assert(strcmp(err.identifier, 'msad:unsupported'), ...
             'expected identifier msad:unsupported, got "%s": %s', err.identifier, err.message);
      assert(~isempty(strfind(err.message, fileName)), ...
             'message does not name %s: %s', fileName, err.message);
      assert(~isempty(regexp(err.message, ['(?<!\d)', position, '(?!\d)'], 'once')), ...
             'message does not give the position %s of schur: %s', position, err.message);
    end
  end

  x0 = enzyme_init();
  [f, J] = msad_eval(@enzyme_residual, x0);
  check_value(f, enzyme_residual(x0), 1e-14, 'enzyme_residual value after an error');
  check_jacobian(J, fd_jacobian(@enzyme_residual, x0), 1e-7, 'enzyme_residual Jacobian after an error');
end
