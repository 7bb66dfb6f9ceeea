function test_fmad_second_derivatives()
% Second derivatives by nesting, X = fmad(fmad(x0, I), I), where a chain
% rule factor is exactly 1 or 0 (a factor that is itself an fmad object must
% be applied whatever its value), against analytic second derivatives and
% central differences of the first derivative; then every case of
% fmadtest_builtin_cases nested at a generic point.
  fmadtest_setup;
  unary_at_exact_factors();
  binary_at_exact_factors();
  every_builtin_case_nested();
end

function unary_at_exact_factors()
  % {f, x0, f''(x0)}: at x0 the first derivative is 1 (or 0, or a factor
  % of the chain rule is exactly 1 or 0).
  cases = {
    @exp, 0, 1
    @log, 1, -1
    @sqrt, 0.25, -2
    @(t) t .^ 2, 0.5, 2
    @(t) t ^ 2, 0.5, 2
    @(t) t .^ 0.5, 0.25, -2
    @(t) t .^ 3, 0, 0
    @(t) t .^ 0, 0, 0
    @(t) t .^ 1, 0, 0
    @(t) t .^ t, 1, 2
    @(t) 2 .^ t, 0, log(2) ^ 2
    @(t) 1 ./ t, 1, 2
    @(t) 1 / t, 1, 2
    @(t) t \ 1, 1, 2
    @(t) t .* t, 1, 2
    @(t) t * t, 0, 2
    @log1p, 0, -1
    @expm1, 0, 1
    @sin, 0, 0
    @cos, 0, -1
    @tan, 0, 0
    @sinh, 0, 0
    @cosh, 0, 1
    @tanh, 0, 0
    @asin, 0, 0
    @acos, 0, 0
    @atan, 0, 0
    @asinh, 0, 0
    @atanh, 0, 0
    @acosh, 2, -2 / 3 ^ 1.5
    @cbrt, 1, -2 / 9
    @log2, 1, -1 / log(2)
    @log10, 1, -1 / log(10)
    @abs, 1, 0
    @(t) hypot(t, 0), 1, 0
    @(t) atan2(t, 1), 0, 0
    @(t) mod(t, 1), 0.5, 0
    @(t) rem(t, 1), 0.5, 0
    @(t) polyval([1 0 0], t), 0.5, 2
    @(t) sumsq(t), 0.5, 2
    @(t) prod([t; t]), 0.5, 2
    @(t) cumprod([t; t]), 0.5, [0; 2]
  };
  for k = 1:size(cases, 1)
    [f, x0, expected] = cases{k, :};
    what = sprintf('%s at %g', func2str(f), x0);
    H = check_nested(f, x0, what);
    fmadtest_check(H, expected, 1e-12, [what ': second derivative vs analytic']);
  end
end

function binary_at_exact_factors()
  % {f, x0, Hessian}: x0 = [a; b] where a partial derivative is exactly 1.
  cases = {
    @(x) x(1) * x(2), [1; 2], [0 1; 1 0]
    @(x) x(1) .* x(2), [2; 1], [0 1; 1 0]
    @(x) x(1) / x(2), [3; 1], [0 -1; -1 6]
    @(x) x(2) \ x(1), [3; 1], [0 -1; -1 6]
    @(x) x(1) ^ x(2), [1; 1], [0 1; 1 0]
    @(x) atan2(x(1), x(2)), [0; 1], [0 -1; -1 0]
    @(x) hypot(x(1), x(2)), [0; 1], [1 0; 0 0]
    @(x) x(1) - x(2) + x(1) * x(1), [0.5; 1], [2 0; 0 0]
    @(x) mod(x(1), x(2)) * x(2), [1.5; 1], [0 1; 1 -2]
    @(x) [x(1), 1] * [x(2); x(1)], [1; 1], [0 1; 1 0]
    @(x) det([x(1), 1; 1, x(2)]), [2; 1], [0 1; 1 0]
  };
  for k = 1:size(cases, 1)
    [f, x0, expected] = cases{k, :};
    what = sprintf('%s at %s', func2str(f), mat2str(x0'));
    H = check_nested(f, x0, what);
    fmadtest_check(H, expected, 1e-12, [what ': Hessian vs analytic']);
  end
  % The example of the report, exactly.
  X = fmad(fmad([1; 2], eye(2)), eye(2));
  if ~isequal(full(getinternalderivs(getinternalderivs(X(1) * X(2)))), [0 1; 1 0])
    error('fmadtest:mismatch', 'the Hessian of x1 * x2 at [1; 2] is not exactly [0 1; 1 0]');
  end
end

function every_builtin_case_nested()
  x0 = [0.3; -0.45; 0.7; 1.2];
  n = numel(x0);
  cases = fmadtest_builtin_cases();
  for k = find(strcmp(cases(:, 2), 'derivative'))'
    f = cases{k, 3};
    check_nested(f, x0, sprintf('%s: %s', cases{k, 1}, func2str(f)));
  end
  for k = find(strcmp(cases(:, 2), 'first derivative'))'
    f = cases{k, 3};
    try
      f(fmad(fmad(x0, eye(n)), eye(n)));
      error('fmadtest:noError', '%s: no error for nested objects', func2str(f));
    catch err
      if ~strcmp(err.identifier, 'msad:fmad:unsupported')
        rethrow(err);
      end
    end
  end
end

function H = check_nested(f, x0, what)
  % Second derivatives of f at x0 by nesting, as a (numel(f) * n) x n
  % matrix (row i + m * (j - 1) holds the derivatives of df_i/dx_j),
  % checked against central differences of the first derivative and for
  % the agreement of the two first derivatives the nesting carries.
  n = numel(x0);
  [inner, outer] = value_and_derivatives(f(fmad(fmad(x0, eye(n)), eye(n))), n);
  [value, inner_first] = value_and_derivatives(inner, n);
  [outer_first, H] = value_and_derivatives(outer, n);
  first = @(t) reshape(full(output(2, @value_and_derivatives, f(fmad(t, eye(n))), n)), [], 1);
  fmadtest_check(value, f(x0), 1e-14, [what ': value']);
  fmadtest_check(full(outer_first), full(inner_first), 1e-14, ...
                 [what ': inner and outer first derivatives']);
  fmadtest_check(reshape(full(outer_first), [], 1), first(x0), 1e-14, [what ': first derivative']);
  H = full(H);
  fmadtest_check(H, fd_jacobian(first, x0), 1e-6, [what ': vs central differences of the first derivative']);
end

function [value, derivs] = value_and_derivatives(y, n)
  % Parts of an fmad object; a double (a piecewise constant result, or the
  % constant seed of the outer level) has zero derivatives.
  if isa(y, 'fmad')
    value = getvalue(y);
    derivs = getinternalderivs(y);
  else
    value = y;
    derivs = zeros(numel(y), n);
  end
end

function out = output(k, fn, varargin)
  outputs = cell(1, k);
  [outputs{:}] = fn(varargin{:});
  out = outputs{k};
end
