function test_msad_inlining()
% msad inlines small user functions: values equal Octave's, J matches central differences, and an
% error inside an inlined function of another file has Octave's message, and err.stack when caught.
  x = [0.3; -1.2; 2.5; 0.7];
  [value, J] = msad_eval(@inline_calls, x, struct('jacobian', 'full'));
  check_value(value, inline_calls(x), 1e-15, 'inline_calls value');
  check_jacobian(J, fd_jacobian(@inline_calls, x), 1e-7, 'inline_calls Jacobian');

  x(1) = 20;
  expected = caught_error(@() inline_calls(x));
  actual = caught_error(@() msad_eval(@inline_calls, x));
  assert(strcmp(actual.identifier, expected.identifier), 'identifier %s, expected %s', actual.identifier, expected.identifier);
  % msad adds the location (inline_shift.m:4:7) to Octave's message.
  assert(~isempty(strfind(actual.message, expected.message)), 'message "%s" lacks "%s"', actual.message, expected.message);
  assert(~isempty(strfind(actual.message, 'inline_shift.m:4:')), 'message "%s" lacks the callee''s line', actual.message);
  % Caught inside msad's code, err.stack gives the inlined callee's place, then the caller's at the call.
  where = msad_eval(@inline_caught_stack, x);
  check_value(where, inline_caught_stack(x), 0, 'err.stack of an inlined callee');
  assert(all(where(3:4) == 1), 'err.stack names');
end

function err = caught_error(call)
  try
    call();
  catch err
    return;
  end
  error('no error raised');
end
