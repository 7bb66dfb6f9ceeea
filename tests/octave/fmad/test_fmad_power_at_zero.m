function test_fmad_power_at_zero()
% Every power form at x = 0 (and at a point mixing 0 with other values):
% fmad's derivatives agree with msad_eval's Jacobian, including the
% conventions at 0: d(x.^0)/dx = 0 (x.^0 is the constant 1, as 0^0 = 1),
% d(0.^b)/db = 0 (0.^b is piecewise constant), an infinite partial (x.^0.5,
% x.^-1 at 0, sqrt at 0) only in the directions the element depends on.
  fmadtest_setup;
  M = @(x) reshape(x, 2, 2);
  forms = {
    @(x) x .^ 0, @(x) x .^ 1, @(x) x .^ 2, @(x) x .^ 3, @(x) x .^ 0.5, @(x) x .^ -1, @(x) x .^ -2, ...
    @(x) x .^ [0; 1; 2; 0.5], @(x) x .^ [0, 1], @(x) x' .^ [-1; 2], ...
    @(x) x(1) ^ 0, @(x) x(1) ^ 1, @(x) x(1) ^ 2, @(x) x(1) ^ 0.5, @(x) x(1) ^ -1, ...
    @(x) 0 .^ x, @(x) 2 .^ x, @(x) [0; 2; 0.5; 1] .^ x, @(x) 0 ^ x(1), @(x) 2 ^ x(1), ...
    @(x) x .^ x, @(x) x .^ flipud(x), @(x) x(1) ^ x(2), @(x) (x + 1) .^ x, ...
    @(x) M(x) ^ 0, @(x) M(x) ^ 1, @(x) M(x) ^ 2, @(x) M(x + [1; 0; 0; 1]) ^ -1, ...
    @sqrt
  };
  points = {zeros(4, 1), [0; 1; 2; 0]};
  for p = 1:numel(points)
    x0 = points{p};
    for k = 1:numel(forms)
      f = forms{k};
      what = sprintf('%s at %s', func2str(f), mat2str(x0'));
      y = f(fmad(x0, eye(4)));
      [F, J] = msad_eval(f, x0);
      if numel(F) == 1
        J = J';                      % msad_eval's gradient is a column
      end
      check_same(getvalue(y), F, [what ': value']);
      check_same(full(getinternalderivs(y)), full(J), [what ': fmad derivatives vs msad_eval''s J']);
    end
  end
  % A sparse constant's unstored entries are structural zeros in msad: sqrt(x(2)) .* 0 does not depend
  % on x, so its partial is 0 (fmad multiplies sqrt's Inf by the 0 and gets NaN).
  [~, J] = msad_eval(@(x) sqrt(x) .* sparse([1; 0; 2; 3]), zeros(4, 1));
  if ~isequal(full(J), diag([Inf, 0, Inf, Inf]))
    error('fmadtest:mismatch', 'sqrt(x) .* sparse([1; 0; 2; 3]) at 0: J is %s', mat2str(full(J)));
  end
  if ~isequal(getinternalderivs(fmad(0, 1) .^ 0), 0)
    error('fmadtest:mismatch', 'd(x.^0)/dx at 0 is not 0');
  end
end

function check_same(actual, expected, what)
  % Equal sizes, the same Inf and NaN entries, finite ones within rounding.
  same_special = isequal(isnan(actual), isnan(expected)) ...
                 && isequal(actual(isinf(actual)), expected(isinf(actual))) ...
                 && isequal(isinf(actual), isinf(expected));
  if ~isequal(size(actual), size(expected)) || ~same_special
    error('fmadtest:mismatch', '%s: %s, expected %s', what, mat2str(actual), mat2str(expected));
  end
  finite = isfinite(expected);
  fmadtest_check(actual(finite), expected(finite), 1e-15, what);
end
