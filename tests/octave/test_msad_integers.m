function test_msad_integers()
% Integer classes are inactive values: integer counters and subscripts around x-dependent code give
% Octave's values and the right J; a value that depends on x flowing into an integer result is
% msad:notDifferentiable (a cast is a deliberate discretisation); integer results come back to Octave
% with their class.
  x = [0.5; -1.25; 2; 3.75; -0.3];
  [f, J] = msad_eval(@int_counters, x);
  check_value(f, int_counters(x), 1e-15, 'int_counters value');
  check_jacobian(J, cs_jacobian(@int_counters, x), 1e-12, 'int_counters Jacobian');
  [f, J] = msad_eval(@(x) x * double(int32(numel(x))) + x(int32(2)), x);
  check_jacobian(J, 5 * eye(5) + [zeros(5, 1), ones(5, 1), zeros(5, 3)], 0, 'integer size and subscript');

  value = msad_eval(@(x) int16(x * 1000) + int16(30000), x);
  assert(isa(value, 'int16') && isequal(value, int16(x * 1000) + int16(30000)), 'int16 result with saturation');
  for f = {@(x) int32(x), @(x) int8(1) + x, @(x) uint8(x * 100)}
    try
      [~, J] = msad_eval(f{1}, x);
      error('no error for %s', func2str(f{1}));
    catch err
      assert(strcmp(err.identifier, 'msad:notDifferentiable'), '%s: %s %s', func2str(f{1}), err.identifier, err.message);
    end
  end
  % Integer arguments and captured integers come in with their class.
  n = int8(4);
  [f, J] = msad_eval(@(x, k) x * double(k) + double(n) + isa(k, 'int16'), x, [], int16(3));
  check_value(f, 3 * x + 5, 0, 'integer extra argument and captured integer');
  check_jacobian(J, 3 * eye(5), 0, 'integer extra argument');
  % Without a derivative asked for, the cast is just a value.
  assert(isequal(msad_eval(@(x) int32(x), x), int32(x)), 'value of int32(x)');
end
