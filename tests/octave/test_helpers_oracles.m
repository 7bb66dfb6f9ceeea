function test_helpers_oracles()
% The finite-difference and complex-step oracles, and check_jacobian's verdicts.

  fun = @(x) [x(1)^2 * x(2); sin(x(2)) + exp(x(1)); x(1) / x(2)];
  x = [0.7; -1.3];
  Jexact = [2*x(1)*x(2), x(1)^2; exp(x(1)), cos(x(2)); 1/x(2), -x(1)/x(2)^2];
  [J, f0] = fd_jacobian(fun, x);
  check_value(f0, fun(x), 0, 'fd_jacobian value');
  check_jacobian(J, Jexact, 1e-9, 'fd_jacobian');
  check_jacobian(cs_jacobian(fun, x), Jexact, 1e-15, 'cs_jacobian');
  % Row inputs, matrix outputs: columns follow x(:), rows follow f(:).
  check_jacobian(cs_jacobian(@(x) x.' * x, [1 2]), [2 0; 2 1; 2 1; 0 4], 1e-15, 'matrix output');

  % Sparse input is accepted.
  check_jacobian(sparse(Jexact), Jexact, 0, 'sparse');

  % A wrong entry is reported with its position and both values.
  wrong = Jexact;
  wrong(3, 2) = wrong(3, 2) * (1 + 1e-6);
  try
    check_jacobian(wrong, Jexact, 1e-7, 'deliberately wrong');
    error('test:noError', 'check_jacobian accepted a wrong entry');
  catch err
    assert(strcmp(err.identifier, 'check_jacobian:mismatch'), err.message);
    assert(~isempty(strfind(err.message, 'deliberately wrong')));
    assert(~isempty(strfind(err.message, '(3,2)')), err.message);
  end

  % NaN fails; size mismatch fails.
  wrong = Jexact;
  wrong(1, 1) = NaN;
  assert(throws(@() check_jacobian(wrong, Jexact, 1, 'nan'), 'check_jacobian:mismatch'));
  assert(throws(@() check_jacobian(Jexact.', Jexact, 1, 'size'), 'check_jacobian:size'));
  assert(throws(@() check_value([1 2], [1 2.1], 1e-3, 'value'), 'check_value:mismatch'));
end

function thrown = throws(fun, identifier)
  thrown = false;
  try
    fun();
  catch err
    thrown = strcmp(err.identifier, identifier);
  end
end
