function fun = msad_fjac(F, varargin)
% MSAD_FJAC  Residual-and-Jacobian handle for fsolve and lsqnonlin, by msad.
%   fun = msad_fjac(F) returns the handle fun = @(x) with
%     [Fx, J] = fun(x)    Fx = F(x) and its Jacobian J = dF/dx
%                         (numel(Fx) x numel(x)), evaluated by msad_eval;
%     Fx = fun(x)         just F(x), evaluated by Octave (solvers call this
%                         in their trial steps: no derivative work there).
%   F is a function handle or name; F(x) returns a numeric array.
%
%   fun = msad_fjac(F, p1, p2, ...) differentiates F(x, p1, p2, ...) with
%   respect to x.
%
%   Example (Broyden tridiagonal system, n = 1000):
%     F = @(x) (3 - 2*x) .* x - [0; x(1:end-1)] - 2*[x(2:end); 0] + 1;
%     opts = optimset('Jacobian', 'on');
%     [x, Fx, info, output] = fsolve(msad_fjac(F), -ones(1000, 1), opts);
%   The same handle serves lsqnonlin (optim package, or MATLAB) with
%   optimset('Jacobian', 'on') / optimoptions(..., 'SpecifyObjectiveGradient', true).
%
%   Note: Octave's fsolve disables its Broyden updates of the Jacobian when
%   J is sparse, and then evaluates J at every iteration.
%
%   Errors: msad:badInput for an F that cannot be called as F(x, extra...),
%   an x that is not a real full double array or an F(x) that is not a real
%   double array; msad_eval's own errors (msad:unsupported, ...) for code
%   msad cannot differentiate.
%
%   See also msad_eval, msad_fgrad, msad_odejac, fsolve, optimset.
  F = msad_check_function(F, 1 + numel(varargin), 'msad_fjac', 'F(x, extra...)');
  extra = varargin;
  fun = @(x) residual_and_jacobian(F, x, extra);
end

function [Fx, J] = residual_and_jacobian(F, x, extra)
  if nargout < 2
    Fx = F(x, extra{:});
    return;
  end
  msad_check_double(x, 'x', 'msad_fjac', false);
  [Fx, J] = msad_eval(F, x, [], extra{:});
  msad_check_double(Fx, 'F(x)', 'msad_fjac', true);
end

%!shared F, x0
%! F = @(x, a) [x(1)^2 + x(2) - a; x(1) * x(2)^3];
%! x0 = [1.5; 0.5];

%!test
%! fun = msad_fjac(F, 3);
%! [Fx, J] = fun(x0);
%! assert(Fx, F(x0, 3), 1e-15);
%! assert(J, [2*1.5, 1; 0.5^3, 3*1.5*0.5^2], 1e-14);
%! assert(fun(x0), F(x0, 3), 1e-15);

%!test  # matrix x: J is numel(F) x numel(x), columns in x(:) order
%! fun = msad_fjac(@(X) X.^2);
%! [Fx, J] = fun([1 2; 3 4]);
%! assert(Fx, [1 4; 9 16]);
%! assert(J, diag(2 * [1 3 2 4]), 1e-14);

%!test  # in fsolve: same root as with finite differences, no more iterations
%! G = @(x) [x(1)^2 + x(2)^2 - 4; exp(x(1)) + x(2) - 1];
%! opts = optimset('TolFun', 1e-12, 'TolX', 1e-12);
%! [xFd, ~, infoFd, outFd] = fsolve(G, [1; -1], opts);
%! [xAd, ~, infoAd, outAd] = fsolve(msad_fjac(G), [1; -1], optimset(opts, 'Jacobian', 'on'));
%! assert([infoFd, infoAd], [1, 1]);
%! assert(xAd, xFd, 1e-8);
%! assert(outAd.iterations <= outFd.iterations);

%!error id=msad:badInput msad_fjac({@sin})
%!error <takes 1 input\(s\), but it is called as F\(x, extra...\) with 2> msad_fjac(@(x) x, 2)
%!test
%! addpath(fullfile(fileparts(which('msad_fjac')), '..', 'tests', 'octave', 'fixtures'));
%! try
%!   msad_fjac('returns_nothing');
%!   error('test:noError', 'accepted a function without outputs');
%! catch err
%!   assert(err.identifier, 'msad:badInput');
%!   assert(err.message, 'msad_fjac: returns_nothing returns no output, but it is called as F(x, extra...) and must return one');
%! end
%!error <x must be a real full double array, not a 1x2 char> [~, ~] = feval(msad_fjac(@(x) x), 'ab')
%!error <x must be a real full double array, not a 2x1 sparse double> [~, ~] = feval(msad_fjac(@(x) x), sparse([1; 0]))
%!error <F\(x\) must be a real double array, not a 1x4 char> [~, ~] = feval(msad_fjac(@(x) 'text'), 1)
