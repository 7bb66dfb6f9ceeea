function [x, fval, info, output] = fzero(fun, x0, options)
% FZERO  A zero of a function of one variable, written for msad. From a scalar x0, Octave's search
%   for a sign change (the same trial points); then Brent's method (bisection, secant and inverse
%   quadratic steps) until the bracket's half width is at most 2 |x| eps + TolX, Octave's test
%   (options.TolX, default eps). The zero agrees with Octave's fzero to that tolerance, not digit for
%   digit. Its derivative follows the implicit function theorem at the zero, dx = -(df/dp) / (df/dx),
%   both exact: df/dp from fun's derivative there, df/dx from fun run once more in forward mode in its
%   argument (__slope__); a zero where that slope vanishes (a multiple zero) has no derivative
%   (msad:notDifferentiable). Two chord steps with that slope give the zero's derivatives: the first
%   the exact first, the second (fun at the first's result) the exact second, as the error of a chord
%   step from a point exact to order k is of order k + 1 once the slope is exact at the zero.
  if nargin < 3
    options = struct();
  end
  tolx = eps;
  if isfield(options, 'TolX') && ~isempty(options.TolX)
    tolx = options.TolX;
  end
  value = @(t) __constant__(fun(t));
  a = x0(1);
  fa = value(a);
  if numel(x0) > 1
    b = x0(2);
    fb = value(b);
    evaluations = 2;
  else
    [b, fb, evaluations] = search(value, a, fa);
  end
  if b < a
    [a, b, fa, fb] = deal(b, a, fb, fa);
  end
  if ~(sign(fa) * sign(fb) <= 0)
    error('Octave:fzero:bracket', 'fzero: not a valid initial bracketing');
  end
  output = struct('iterations', 0, 'funcCount', evaluations, 'algorithm', 'bisection, interpolation', 'bracketx', [a, b], 'brackety', [fa, fb]);
  [x, iterations, evaluations] = brent(value, a, fa, b, fb, tolx);
  output.iterations = iterations;
  output.funcCount = output.funcCount + evaluations;
  % The implicit function theorem: chord steps from the zero in the derivatives only (their values are
  % 0), with fun's exact slope in t there.
  fval = fun(x);
  slope = __slope__(fun, x);
  % A multiple zero: the linear term is lost among the others over a short step.
  h = eps ^ (1 / 5) * max(1, abs(x));
  if abs(slope) * h <= 1e-3 * max(abs([value(x - h), value(x + h)]))
    error('msad:notDifferentiable', 'fzero: the function''s slope is 0 at the zero %g: the zero has no derivative', x);
  end
  first = x - (fval - __constant__(fval)) / slope;
  at_first = fun(first);
  x = first - (at_first - __constant__(at_first)) / slope;
  info = 1;
end

function [b, fb, evaluations] = search(value, a, fa)
  % Octave's trial points around a for a sign change.
  if abs(a) < 0.001
    aa = merge(a == 0, 0.1, sign(a) * 0.1);
  else
    aa = a;
  end
  evaluations = 1;
  for step = [-0.01, 0.025, -0.05, 0.1, -0.25, 0.5, -1, 2.5, -5, 10, -50, 100, -500, 1000]
    b = aa + aa * step;
    fb = value(b);
    evaluations = evaluations + 1;
    if sign(fa) * sign(fb) <= 0
      return;
    end
  end
end

function [b, iterations, evaluations] = brent(value, a, fa, b, fb, tolx)
  % Brent's zero finder on the bracket [a, b]: b the best point, c the other end of the bracket.
  if fa == 0
    b = a;
    fb = fa;
  end
  c = a;
  fc = fa;
  d = b - a;
  e = d;
  iterations = 0;
  evaluations = 0;
  while fb ~= 0
    if sign(fb) == sign(fc)
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    end
    if abs(fc) < abs(fb)
      [a, b, c, fa, fb, fc] = deal(b, c, b, fb, fc, fb);
    end
    tol = 2 * eps * abs(b) + tolx;
    m = (c - b) / 2;
    if abs(m) <= tol
      return;
    end
    if abs(e) < tol || abs(fa) <= abs(fb)
      d = m;
      e = m;
    else
      [p, q] = interpolation_step(a, b, c, fa, fb, fc, m);
      if 2 * p < min(3 * m * q - abs(tol * q), abs(e * q))
        e = d;
        d = p / q;
      else
        d = m;
        e = m;
      end
    end
    a = b;
    fa = fb;
    if abs(d) > tol
      b = b + d;
    else
      b = b + sign(m) * tol;
    end
    fb = value(b);
    iterations = iterations + 1;
    evaluations = evaluations + 1;
  end
end

function [p, q] = interpolation_step(a, b, c, fa, fb, fc, m)
  % The step p / q from b: secant through a and b, or inverse quadratic through a, b and c; p >= 0.
  s = fb / fa;
  if a == c
    p = 2 * m * s;
    q = 1 - s;
  else
    q = fa / fc;
    r = fb / fc;
    p = s * (2 * m * q * (q - r) - (b - a) * (r - 1));
    q = (q - 1) * (r - 1) * (s - 1);
  end
  if p > 0
    q = -q;
  else
    p = -p;
  end
end
