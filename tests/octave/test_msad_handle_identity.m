function test_msad_handle_identity()
% A handle Octave passes again is not read again (#21 item 9: the per-call cost does not grow with
% its captured values): msad knows it by identity while it holds it. Never a stale value: a new
% handle (here made 40 times with the same text and other captured values, the old ones freed, so
% their memory is reused) is read anew, copies of a handle share its values, and alternating handles
% each give their own.
  x = [0.7; -1.3; 2.1];
  for k = 1:40
    p = k;
    f = @(y) y .^ 2 * p;
    [v, J] = msad_eval(f, x);
    check_value(v, x .^ 2 * k, 1e-15, sprintf('new handle %d', k));
    check_jacobian(J, diag(2 * k * x), 1e-15, sprintf('new handle %d', k));
  end
  copy = f;
  check_value(msad_eval(copy, x), x .^ 2 * 40, 1e-15, 'a copy of the handle');
  p = -3;
  g = @(y) y .^ 2 * p;
  for round = 1:3
    check_value(msad_eval(f, x), x .^ 2 * 40, 1e-15, 'alternating: first');
    check_value(msad_eval(g, x), -3 * x .^ 2, 1e-15, 'alternating: second');
  end
  % A closure over a closure: the inner one's values come with the outer handle.
  A = sparse([1 2 3], [1 2 3], [2 3 4]);
  inner = @(y) A * y;
  outer = @(y) inner(y) .^ 2;
  for k = 1:3
    [v, J] = msad_eval(outer, x);
    check_value(v, (A * x) .^ 2, 1e-15, 'two levels');
    check_jacobian(J, 2 * diag(A * x) * A, 1e-15, 'two levels J');
  end
  clear msad_eval
  check_value(msad_eval(outer, x), (A * x) .^ 2, 1e-15, 'after clear msad_eval');
end
