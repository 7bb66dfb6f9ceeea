function test_msad_grow_undefined()
% Indexed assignment into an undefined or empty variable follows Octave's growth rules for every
% subscript form (Y(:, 1) = 5 is 1x1, Y(2, :) = [1 2 3] is 2x3, Y(:, :, 2) = M, Y(3) = x, ...): value,
% class and size equal Octave's, J equals central differences, and the gradient of a scalar objective
% is the same in forward and reverse mode; its Hessian equals nested central differences.
  x = [2; 3];
  for k = [1:19, 21:24]
    expected = grow_undefined(x, k);
    [Y, J] = msad_eval(@grow_undefined, x, struct(), k);
    assert(isequal(size(Y), size(expected)) && strcmp(class(Y), class(expected)) && isequal(Y, expected), ...
           'case %d: %s %s, Octave %s %s', k, class(Y), mat2str(size(Y)), class(expected), mat2str(size(expected)));
    if isscalar(expected)
      J = J';   % the gradient of a scalar comes as a column
    end
    check_jacobian(J, fd_jacobian(@(x) grow_undefined(x, k), x), 1e-8, sprintf('case %d: J', k));
    objective = @(x, k) sum(grow_undefined(x, k)(:) .^ 2);
    [~, g_forward] = msad_eval(objective, x, struct('mode', 'forward'), k);
    [~, g_reverse] = msad_eval(objective, x, struct('mode', 'reverse'), k);
    check_jacobian(g_reverse', fd_jacobian(@(x) objective(x, k), x), 1e-8, sprintf('case %d: reverse gradient', k));
    check_value(g_forward, g_reverse, 1e-14, sprintf('case %d: forward and reverse gradients', k));
    [~, ~, H] = msad_eval(objective, x, struct(), k);
    check_jacobian(H, fd_jacobian(@(y) fd_jacobian(@(z) objective(z, k), y)', x), 1e-4, sprintf('case %d: Hessian', k));
  end
  try
    msad_eval(@grow_undefined, x, struct(), 20);
    error('test:noError', 'Y(:) = x on an undefined Y: Octave''s error expected');
  catch err
    assert(strcmp(err.identifier, 'Octave:nonconformant-args'), '%s: %s', err.identifier, err.message);
  end
end
