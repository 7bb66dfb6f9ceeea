function [x, fval, info, output] = fminbnd(fun, a, b, options)
% FMINBND  A minimum of a function of one variable on [a, b], written for msad: Brent's golden
%   section search with parabolic steps, with Octave's tolerance 2 |x| eps + TolX / 3 (options.TolX,
%   default 1e-4) and limits (500 iterations and evaluations): the same steps as Octave's fminbnd.
%   Its derivative follows the implicit function theorem at an interior minimum,
%   dx = -(d2f/dx dp) / (d2f/dx2), both by five-point central differences of fun (d2f/dx dp from the
%   derivative of the slope; relative error near 1e-10); at a minimum on a bound, the bound's
%   derivative. A minimum where the curvature is not positive has no derivative (msad:notDifferentiable);
%   an interior minimum has no Hessian (the curvature carries no derivative).
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
    x = __first_order__(x - implicit_step(fun, value, x), 'fminbnd');
  end
  fval = fun(x);
end

function step = implicit_step(fun, value, x)
  % The implicit function theorem at a minimum: a Newton step on the slope in the derivative only
  % (its value is 0).
  h = eps ^ (1 / 5) * max(1, abs(x));
  slope = (fun(x - 2 * h) - 8 * fun(x - h) + 8 * fun(x + h) - fun(x + 2 * h)) / (12 * h);
  k = eps ^ (1 / 6) * max(1, abs(x));
  curvature = (-value(x - 2 * k) + 16 * value(x - k) - 30 * value(x) + 16 * value(x + k) - value(x + 2 * k)) / (12 * k ^ 2);
  if ~(curvature > 0)
    error('msad:notDifferentiable', 'fminbnd: the curvature at the minimum %g is not positive: the minimum has no derivative', x);
  end
  step = (slope - __constant__(slope)) / curvature;
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
