function [x, fval, info, output] = fminbnd(fun, a, b, options)
% FMINBND  A minimum of a function of one variable on [a, b], written for msad: Brent's golden
%   section search with parabolic steps, with Octave's tolerance 2 |x| eps + TolX / 3 (options.TolX,
%   default 1e-4) and limits (500 iterations and evaluations): the same steps as Octave's fminbnd.
%   Its derivatives follow the implicit function theorem at an interior minimum, the zero of the
%   slope g(t) = df/dt: two chord steps in the derivatives only, as fzero's on its function (the
%   first gives the exact first derivative, the second the exact second). g is fun's five-point
%   central difference (fun's own derivatives in x at four points; relative error near 1e-13), the
%   chord's slope dg/dt at the minimum the same difference of fun's exact slopes in t (__slope__).
%   At a minimum on a bound, the bound's derivative. A minimum where the curvature is not positive
%   has no derivative (msad:notDifferentiable).
  if nargin < 4
    options = struct();
  end
  if a > b
    error('Octave:invalid-input-arg', 'fminbnd: the lower bound cannot be greater than the upper one');
  end
  tolx = 1e-4;
  if isfield(options, 'TolX') && ~isempty(options.TolX)
    tolx = options.TolX;
  end
  value = @(t) __constant__(fun(t));
  [x, lower, upper, iterations, info] = golden_parabolic(value, __constant__(a), __constant__(b), tolx);
  output = struct('iterations', iterations, 'funcCount', iterations + 1, ...
                  'algorithm', 'golden section search, parabolic interpolation', 'bracket', [lower, upper]);
  tol = 2 * eps * abs(x) + tolx / 3;
  if x - a < 3 * tol
    x = x + (a - __constant__(a));
  elseif b - x < 3 * tol
    x = x + (b - __constant__(b));
  else
    x = implicit_steps(fun, x);
  end
  fval = fun(x);
end

function x = implicit_steps(fun, x)
  % Chord steps on the slope g from the minimum x in the derivatives only (their values are 0).
  h = eps ^ (1 / 5) * max(1, abs(x));
  g = @(t) (fun(t - 2 * h) - 8 * fun(t - h) + 8 * fun(t + h) - fun(t + 2 * h)) / (12 * h);
  slopes = [__slope__(fun, x - 2 * h), __slope__(fun, x - h), __slope__(fun, x + h), __slope__(fun, x + 2 * h)];
  curvature = slopes * [1; -8; 8; -1] / (12 * h);
  % A minimum of zero curvature (t^4): the slope's linear term is lost among the others over a step.
  if ~(curvature * h > 1e-3 * max(abs(slopes)))
    error('msad:notDifferentiable', 'fminbnd: the curvature at the minimum %g is not positive: the minimum has no derivative', x);
  end
  at_x = g(x);
  first = x - (at_x - __constant__(at_x)) / curvature;
  at_first = g(first);
  x = first - (at_first - __constant__(at_first)) / curvature;
end

function [x, a, b, iterations, info] = golden_parabolic(value, a, b, tolx)
  % Brent's minimizer on [a, b]: x the best point, w the second best, v the previous w.
  golden = (3 - sqrt(5)) / 2;
  x = a + golden * (b - a);
  [v, w] = deal(x);
  fx = value(x);
  [fv, fw] = deal(fx);
  [d, e] = deal(0);
  iterations = 0;
  info = 0;
  while iterations < 499
    middle = (a + b) / 2;
    tol = 2 * eps * abs(x) + tolx / 3;
    if abs(x - middle) <= 2 * tol - (b - a) / 2
      info = 1;
      return;
    end
    golden_step = true;
    if abs(e) > tol
      [p, q] = parabola(x, v, w, fx, fv, fw);
      previous = e;
      e = d;
      if abs(p) < abs(q * previous / 2) && p > q * (a - x) && p < q * (b - x)
        golden_step = false;
        d = p / q;
        if min(x + d - a, b - x - d) < 2 * tol
          d = tol * (sign(middle - x) + (middle == x));
        end
      end
    end
    if golden_step
      e = merge(x >= middle, a - x, b - x);
      d = golden * e;
    end
    u = x + max(abs(d), tol) * (sign(d) + (d == 0));
    fu = value(u);
    iterations = iterations + 1;
    if fu < fx
      if u < x
        b = x;
      else
        a = x;
      end
      [v, fv, w, fw, x, fx] = deal(w, fw, x, fx, u, fu);
    else
      if u < x
        a = u;
      else
        b = u;
      end
      if fu <= fw || w == x
        [v, fv, w, fw] = deal(w, fw, u, fu);
      elseif fu <= fv || v == x || v == w
        [v, fv] = deal(u, fu);
      end
    end
  end
end

function [p, q] = parabola(x, v, w, fx, fv, fw)
  % The step p / q from x to the vertex of the parabola through (x, v, w); q >= 0.
  r = (x - w) * (fx - fv);
  q = (x - v) * (fx - fw);
  p = (x - v) * q - (x - w) * r;
  q = 2 * (q - r);
  p = -sign(q) * p;
  q = abs(q);
end
