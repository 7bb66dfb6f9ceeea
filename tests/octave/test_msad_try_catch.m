function test_msad_try_catch()
% try/catch in differentiated code: values equal Octave's on both paths, J matches central
% differences (the path taken decides it, and later calls on the other path detect the pattern
% again), errors that leave the function keep Octave's identifiers, msad's own errors are not caught.
  n = 12;
  body = 0.2 + 0.1 * (0:n - 1)';
  caught = body;
  caught(1) = 20;
  for x = {body, caught, body}
    check_against_octave(@try_index_fallback, x{1}, 'try_index_fallback');
    check_against_octave(@try_objective, x{1}, 'try_objective');
  end
  mixed = [0.5; -1; 2; -0.3; 3; -0.25; 1.5; 4];
  check_against_octave(@try_branch_error, mixed, 'try_branch_error');
  check_against_octave(@try_state_kept, [1.5; -2; 0.75; 3; 0.5], 'try_state_kept');

  % A caught error is Octave's lasterr afterwards, as after a direct call.
  lasterr('');
  try_index_fallback(caught);
  expected = lasterr();
  lasterr('');
  msad_eval(@try_index_fallback, caught);
  assert(strcmp(lasterr(), expected), 'lasterr "%s", expected "%s"', lasterr(), expected);

  % Errors leaving the function: Octave's identifier and message, or the user's, kept.
  expect_error(@() msad_eval(@(x) x(3), [1; 2]), 'Octave:index-out-of-bounds', 'x(3): out of bound 2 (dimensions are 2x1)');
  expect_error(@() msad_eval(@(x) [1 2 3] * x, [1; 2]), 'Octave:nonconformant-args', 'operator *: nonconformant arguments (op1 is 1x3, op2 is 2x1)');
  expect_error(@() msad_eval(@(x) rethrow(struct('message', 'again', 'identifier', 'my:again')), 1), ...
               'my:again', 'again');
  % A complex value that depends on x is msad's limitation (with J asked for), not an error in Octave:
  % try does not catch it. Without J the value is Octave's.
  expect_error(@() jacobian_of(@try_not_caught, [1; 2]), 'msad:unsupported', 'complex');
  check_value(msad_eval(@try_not_caught, [1; 2]), try_not_caught([1; 2]), 0, 'complex value without J');
end

function check_against_octave(f, x, label)
  [value, J] = msad_eval(f, x, struct('jacobian', 'full'));
  check_value(value, f(x), 1e-15, [label ' value']);
  % A scalar f gets its gradient as a column.
  check_jacobian(reshape(J, numel(value), []), fd_jacobian(f, x), 1e-7, [label ' Jacobian']);
end

function J = jacobian_of(f, x)
  [~, J] = msad_eval(f, x);
end

function expect_error(call, identifier, message_part)
  try
    call();
  catch err
    assert(strcmp(err.identifier, identifier), 'identifier %s, expected %s', err.identifier, identifier);
    assert(~isempty(strfind(err.message, message_part)), 'message "%s" lacks "%s"', err.message, message_part);
    return;
  end
  error('no error raised (expected %s)', identifier);
end
