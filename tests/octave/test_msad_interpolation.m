function test_msad_interpolation()
% TEST_MSAD_INTERPOLATION  Interpolation and quadrature (issue 24): interp1 with every method and
% extrapolation, interp2 (linear, nearest, cubic), spline (not-a-knot and complete), pchip, ppval,
% cumtrapz, trapz, polyfit, integral and quadgk give Octave's values through msad_eval, and
% Jacobians in the values, the sample points and the query points that match central differences
% (forward and reverse mode).
  x = [0.31; 0.52; 0.74; 0.43; 0.65; 0.86];
  s = [0 0.9 2.1 3 3.8 5];
  % More query points than samples: the argument parsing of interp1 explores branches on which its
  % cell of arguments holds values of other sizes (their patterns must not be merged).
  q = [-1 0.4 1.7 2.95 3.5 4.4 5 6];
  cases = cell(0, 2);
  for m = {'linear', 'nearest', 'previous', 'next', 'pchip', 'cubic', 'spline'}
    cases(end + 1, :) = {['interp1 ', m{1}], @(x) interp1(s, x, q, m{1})};
    cases(end + 1, :) = {['interp1 extrap ', m{1}], @(x) interp1(s, x, q, m{1}, 'extrap')};
    cases(end + 1, :) = {['interp1 value ', m{1}], @(x) interp1(x, q / 5 + 0.3, m{1}, 0.5)};
  end
  cases(end + 1, :) = {'interp1 spline in x and xi', @(x) interp1(cumsum(x), [1 4 2 8 5 7], 0.4 + x(1:3), 'spline')};
  cases(end + 1, :) = {'spline', @(x) spline(s, x, q)};
  cases(end + 1, :) = {'spline complete', @(x) spline(0:3, x, [0.5 1.5 2.9])};
  cases(end + 1, :) = {'spline 3 points', @(x) spline([0 1 3], x(1:3), [0.5 2 2.5])};
  cases(end + 1, :) = {'pchip', @(x) pchip(s, [1 3 2 2 5 4]' .* x, q)};
  cases(end + 1, :) = {'ppval', @(x) ppval(spline(s, x), q)};
  cases(end + 1, :) = {'cumtrapz', @(x) cumtrapz(cumsum(x), x .^ 2)};
  cases(end + 1, :) = {'cumtrapz dim', @(x) cumtrapz(reshape(x, 2, 3), 2)};
  cases(end + 1, :) = {'trapz', @(x) trapz(cumsum(x), sin(x))};
  cases(end + 1, :) = {'polyfit', @(x) polyfit(cumsum(x), [1 3 2 5 4 6], 2)};
  grid = {[0 1 2.5], [0 2 3]};
  for m = {'linear', 'nearest', 'cubic'}
    cases(end + 1, :) = {['interp2 values ', m{1}], @(x) interp2(grid{:}, reshape([x; 1; 2; x(1)], 3, 3), [-0.5 0.3 1.2 2.2 3], [0.5; 1.5; 2.5; 4], m{1})};
    cases(end + 1, :) = {['interp2 points ', m{1}], @(x) interp2(grid{:}, [1 2 4; 2 5 1; 3 3 2], 2 * x(1:3), 1 + 2 * x(4:6), m{1}, 0.5)};
  end
  cases(end + 1, :) = {'interp2 Z form', @(x) interp2([1 2 4 3; 2 5 1 0; 3 3 2 1], 1 + 2 * x(1:3), 1 + 2 * x(4:6), 'cubic')};
  cases(end + 1, :) = {'integral', @(x) integral(@(t) exp(-x(1) * t .^ 2) .* cos(x(2) * t), 0, 4)};
  cases(end + 1, :) = {'quadgk', @(x) quadgk(@(t) x(3) ./ (1 + (x(4) * t) .^ 2), -1, 2)};
  for k = 1:rows(cases)
    [label, fun] = cases{k, :};
    [f, J] = msad_eval(fun, x);
    expected = fun(x);
    outside = isnan(expected(:));
    assert(isequal(isnan(f(:)), outside), '%s: NaN where Octave has none, or the reverse', label);
    check_value(f(~outside), expected(~outside), 1e-12, [label, ' value']);
    % The points outside get a constant (NA): a zero derivative.
    fd = fd_jacobian(fun, x);
    fd(outside, :) = 0;
    if isscalar(f)
      J = J.';  % msad_eval gives a scalar function's gradient as a column
    end
    check_jacobian(J, fd, 1e-6, [label, ' Jacobian']);
    % Struct-valued pp forms and integrands capturing x are forward mode only; NaN values have no
    % weighted sum.
    forward_only = any(strcmp(label, {'ppval', 'integral', 'quadgk'}));
    if ~forward_only && ~any(outside)
      check_reverse_gradient(fun, x, J, label);
    end
  end
  printf('  interpolation: %d cases as Octave, with Jacobians vs central differences\n', rows(cases));
end
