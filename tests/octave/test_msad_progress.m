function test_msad_progress()
% TEST_MSAD_PROGRESS  A first call still running after a second says so on one line while it runs
% (detection runs beside the host's thread); later calls and quick first calls print nothing.
  quick = evalc('[~, J] = msad_eval(@(x) x .^ 2, [1; 2]);');
  assert(isempty(quick), 'a quick first call printed "%s"', quick);
  % Calibrate the loop count on another handle's first call with a Jacobian (its own plan), so that
  % the first call of spin itself takes a few seconds here.
  count = 2000;
  tic;
  [~, ~] = msad_eval(@(x, n) spin(x, n), 1, struct(), count);
  per_step = max(toc, 1e-3) / count;
  count = round(4 / per_step);
  tic;
  printed = evalc('[y, J] = msad_eval(@spin, 1, struct(), count);');
  took = toc;
  assert(y == 1 + count && J == 1, 'value and derivative of the long call');
  if took > 1.3
    assert(~isempty(strfind(printed, 'msad: first call of spin: detecting and colouring')), ...
           'a %.1f s first call printed "%s"', took, printed);
  end
  again = evalc('[y, J] = msad_eval(@spin, 1, struct(), count);');
  assert(isempty(again), 'a later call printed "%s"', again);
  printf('  progress: a %.1f s first call said so once; later and quick calls print nothing\n', took);
end
