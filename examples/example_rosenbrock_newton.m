function comparison = example_rosenbrock_newton(n)
% EXAMPLE_ROSENBROCK_NEWTON  Newton's method with msad's exact sparse Hessian vs fminunc with msad's gradient.
%   example_rosenbrock_newton() minimises the extended Rosenbrock function
%   (n = 100, start [-1.2 1 -1.2 1 ...], minimum 0 at ones) twice: with
%   fminunc(msad_fgrad(f), x0, optimset('GradObj', 'on')), and with a damped
%   Newton iteration on [f, g, H] = msad_fgrad(f)(x) (H sparse, 2x2 blocks).
%   Octave's fminunc never asks for a Hessian: it is a quasi-Newton method
%   (damped BFGS updates of a dense Cholesky factor, whatever the
%   'Hessian' option says), so the Newton iteration shows H in use. It
%   prints both times and iteration counts and checks the minimisers agree.
%
%   comparison = example_rosenbrock_newton(n) uses n unknowns and returns
%   both runs' figures.
%
%   See also msad_fgrad, msad_eval, fminunc, ext_rosenbrock_vec.
  if nargin < 1
    n = 100;   % seconds; fminunc's dense BFGS grows as n^2 per iteration (n = 1000: minutes)
  end
  add_msad_paths();
  x0 = repmat([-1.2; 1], n/2, 1);
  fun = msad_fgrad(@ext_rosenbrock_vec);
  options = optimset('MaxIter', 5000, 'MaxFunEvals', 1e8, 'GradObj', 'on');
  reference = run_solver(@fminunc, 'fminunc (BFGS) + msad gradient', fun, x0, options);
  newton = run_solver(@newton_minimise, 'Newton + msad Hessian', fun, x0, optimset('TolFun', 1e-10, 'MaxIter', 200));
  titleText = sprintf('Extended Rosenbrock, n = %d: quasi-Newton vs Newton', n);
  comparison = compare_runs(titleText, reference, newton, 5e-3);
end

function [x, fx, info, output] = newton_minimise(fun, x, options)
% Damped Newton: the Newton step from [fx, g, H] = fun(x) (H shifted by a multiple of the identity
% until it is positive definite), then backtracking until the decrease is sufficient (Armijo).
  tolerance = optimget(options, 'TolFun');
  info = 0;
  calls = 0;
  steps = 0;
  identity = speye(numel(x));
  while steps < optimget(options, 'MaxIter')
    [fx, g, H] = fun(x);
    calls = calls + 1;
    if norm(g, Inf) <= tolerance * max(1, abs(fx))
      info = 1;
      break;
    end
    shift = 0;
    [R, notPositive] = chol(H);
    while notPositive
      shift = max(2 * shift, 1e-3 * norm(H, 1));
      [R, notPositive] = chol(H + shift * identity);
    end
    step = -(R \ (R' \ g));
    t = 1;
    while fun(x + t * step) > fx + 1e-4 * t * (g' * step)
      t = t / 2;
      calls = calls + 1;
    end
    x = x + t * step;
    steps = steps + 1;
  end
  output = struct('iterations', steps, 'funcCount', calls);
end
