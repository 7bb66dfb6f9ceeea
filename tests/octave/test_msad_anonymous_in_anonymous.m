function test_msad_anonymous_in_anonymous()
% An anonymous function that calls msad_eval on a handle, itself anonymous or made inside it (the
% form of test harnesses: k = @() msad_eval(@(x) sum(abs(h(x))), x0, opts)), in every mode. The
% "'x' undefined" reported against msad is Octave 7's own: an anonymous function whose text holds an
% inner @(x) ... does not capture an outer variable also named x, with or without msad (checked below);
% name the outer variable otherwise.
  h = @(x) [x(1) ^ 2; sin(x(2))];
  x0 = [1; 2];
  gref = [2 * x0(1); cos(x0(2))];
  for options = {struct(), struct('mode', 'forward'), struct('mode', 'reverse')}
    opts = options{1};
    g = @(x) sum(abs(h(x)));
    k = @() msad_eval(g, x0, opts);
    [v, J] = k();
    check_value(v, g(x0), 1e-15, 'handle made outside');
    check_jacobian(J(:).', gref.', 1e-15, 'handle made outside');
    inline = @() msad_eval(@(x) sum(abs(h(x))), x0, opts);
    [v, J] = inline();
    check_value(v, g(x0), 1e-15, 'handle made inside');
    check_jacobian(J(:).', gref.', 1e-15, 'handle made inside');
    inline();   % no outputs, as expect_error calls it
  end
  % Octave's own behaviour, no msad involved.
  x = x0;
  shadowed = @() numel(cellfun(@(x) x, {1})) + x(1);
  expect_error(shadowed, '', '''x'' undefined');
end
