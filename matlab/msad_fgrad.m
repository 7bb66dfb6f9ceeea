function fun = msad_fgrad(f, varargin)
% MSAD_FGRAD  Objective-and-gradient handle for fminunc and fmincon, by msad.
%   fun = msad_fgrad(f) returns the handle fun = @(x) with
%     [fx, g] = fun(x)    the scalar fx = f(x) and its gradient g (a column,
%                         numel(x) x 1), evaluated by msad_eval;
%     fx = fun(x)         just f(x), evaluated by Octave (line searches).
%   Use it with optimset('GradObj', 'on') (MATLAB:
%   optimoptions(..., 'SpecifyObjectiveGradient', true)).
%
%   fun = msad_fgrad(f, p1, p2, ...) differentiates f(x, p1, p2, ...) with
%   respect to x. f may return further outputs; only the first is used.
%
%   Example (extended Rosenbrock, n = 100):
%     f = @(x) sum(100 * (x(2:2:end) - x(1:2:end).^2).^2 + (1 - x(1:2:end)).^2);
%     x0 = repmat([-1.2; 1], 50, 1);
%     [x, fx, info, output] = fminunc(msad_fgrad(f), x0, optimset('GradObj', 'on'));
%
%   [fx, g, H] = fun(x) also returns the exact Hessian H (sparse when that
%   pays): what 'Hessian','on' / HessianFcn = 'objective' asks for. Octave's
%   fminunc (7.x) never asks for it: it is a quasi-Newton (BFGS) trust-region
%   method; a Newton iteration can use H directly (see
%   examples/example_rosenbrock_newton.m).
%
%   Errors: msad:badInput for an f that cannot be called as f(x, extra...),
%   an x that is not a real full double array, or an f(x) that is not a
%   real double scalar; msad_eval's own errors (msad:unsupported, ...) for
%   code msad cannot differentiate.
%
%   See also msad_eval, msad_fjac, msad_odejac, fminunc, optimset.
  f = msad_check_function(f, 1 + numel(varargin), 'msad_fgrad', 'f(x, extra...)');
  extra = varargin;
  fun = @(x) objective_and_gradient(f, x, extra);
end

function [fx, g, H] = objective_and_gradient(f, x, extra)
  if nargout < 2
    fx = f(x, extra{:});
    return;
  end
  msad_check_double(x, 'x', 'msad_fgrad', false);
  % msad_eval itself refuses H for a non-scalar f (msad:badInput).
  if nargout > 2
    [fx, g, H] = msad_eval(f, x, [], extra{:});
  else
    [fx, g] = msad_eval(f, x, [], extra{:});
  end
  msad_check_double(fx, 'f(x)', 'msad_fgrad', true);
  if ~isscalar(fx)
    error('msad:badInput', 'msad_fgrad: the objective must return a scalar, not a %s (for residual vectors use msad_fjac)', ...
          msad_describe(fx));
  end
  % For a scalar f, msad_eval's second output is the gradient column already.
  g = g(:);
end

%!shared f, x0
%! f = @(x, c) c * (x(1) - 1)^2 + x(1) * x(2)^2;
%! x0 = [2; 3];

%!test
%! fun = msad_fgrad(f, 10);
%! [fx, g] = fun(x0);
%! assert(fx, f(x0, 10));
%! assert(g, [2*10*(2 - 1) + 3^2; 2*2*3], 1e-14);
%! assert(fun(x0), f(x0, 10));

%!test  # matrix x: g is a column in x(:) order
%! [~, g] = feval(msad_fgrad(@(X) sum(X(:).^3)), [1 2; 3 4]);
%! assert(g, 3 * [1; 3; 2; 4].^2, 1e-13);

%!test  # in fminunc: same minimiser as with finite differences, no more iterations
%! rosen = @(x) 100 * (x(2) - x(1)^2)^2 + (1 - x(1))^2;
%! [xFd, ~, infoFd, outFd] = fminunc(rosen, [-1.2; 1]);
%! [xAd, ~, infoAd, outAd] = fminunc(msad_fgrad(rosen), [-1.2; 1], optimset('GradObj', 'on'));
%! assert(infoFd > 0 && infoAd > 0);
%! assert(xAd, [1; 1], 1e-6);
%! assert(xAd, xFd, 1e-5);
%! assert(outAd.iterations <= outFd.iterations);

%!test  # the Hessian, for the objective's extra arguments too
%! [fx, g, H] = feval(msad_fgrad(@(x, c) c * x' * x + x(1) * x(2)^2, 3), [1; 2]);
%! assert(fx, 3 * 5 + 4);
%! assert(g, [6 + 4; 12 + 4], 1e-13);
%! assert(full(H), [6, 4; 4, 6 + 2], 1e-13);

%!error id=msad:badInput [~, ~, ~] = feval(msad_fgrad(@(x) x.^2), [1; 2])
%!error <the objective must return a scalar, not a 2x1 double> [~, ~] = feval(msad_fgrad(@(x) x.^2), [1; 2])
%!error <takes 2 input\(s\), but it is called as f\(x, extra...\) with 3> msad_fgrad(@(x, a) x, 1, 2)
%!error <x must be a real full double array, not a 1x1 int32> [~, ~] = feval(msad_fgrad(@(x) x^2), int32(3))
%!error id=msad:badInput msad_fgrad([])
%!error <f\(x\) must be a real double array, not a 1x1 logical> [~, ~] = feval(msad_fgrad(@(x) x(1) > 0), [1; 2])
