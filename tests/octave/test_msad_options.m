function test_msad_options()
% Options as users write them: field names in any case, name-value pairs in place of opts,
% 'on'/'off' for flags; verbose prints the time of each phase.
  f = @(x) [x(1) * x(2); x(2)^2; x(3) - x(1)];
  x = [1; 2; 3];
  expected = [2, 1, 0; 0, 4, 0; -1, 0, 1];

  [~, J] = msad_eval(f, x, struct('Jacobian', 'sparse'));
  assert(issparse(J) && isequal(full(J), expected));
  [~, J] = msad_eval(f, x, 'Jacobian', 'full');
  assert(~issparse(J) && isequal(J, expected));
  [~, J] = msad_eval(f, x, 'JACOBIAN', 'sparse', 'Mode', 'forward', 'Threads', 1);
  assert(issparse(J) && isequal(full(J), expected));
  [~, P] = msad_eval(f, x, 'jacobian', 'pattern');
  assert(isequal(full(P), double(expected ~= 0)));
  % wrt as a pair: the rhs of an ODE in its second argument, as a struct with extra arguments.
  [~, Jy] = msad_eval(@(t, y) t * y.^2, 2, struct('WRT', 2), [1; 3]);
  assert(isequal(full(Jy), diag([4, 12])));

  quiet = evalc('[~, J] = msad_eval(f, x, ''verbose'', ''off'');');
  assert(isempty(quiet), 'verbose off printed: %s', quiet);
  clear msad_eval;
  printed = evalc('[~, J] = msad_eval(f, x, ''Verbose'', ''on'');');
  for phase = {'parsing and lowering took', 'analysis took', 'sparsity detection took', 'colouring took', 'evaluation took'}
    assert(~isempty(strfind(printed, phase{1})), 'verbose output lacks "%s":\n%s', phase{1}, printed);
  end
  assert(isequal(full(J), expected));
  printed = evalc('msad_eval(f, x, struct(''verbose'', true));');
  assert(~isempty(strfind(printed, 'cache hit')), 'the second call was no cache hit:\n%s', printed);

  expect_error(@() msad_eval(f, x, 'jacobain', 'full'), 'msad:badInput', '''jacobain'' is no option name');
  expect_error(@() msad_eval(f, x, 'mode', 'forward', 'verbose'), 'msad:badInput', 'no value follows');
  expect_error(@() msad_eval(f, x, 'verbose', 'yes'), 'msad:badInput', '''on'' or ''off''');
  expect_error(@() msad_eval(f, x, struct('Mode', 'sideways')), 'msad:badInput', 'opts.mode must be');
end
