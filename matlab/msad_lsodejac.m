function jac = msad_lsodejac(f, varargin)
% MSAD_LSODEJAC  Jacobian handle for Octave's lsode, by msad.
%   jac = msad_lsodejac(f) returns the handle jac = @(x, t) that evaluates
%   the Jacobian d f(x, t) / d x with msad_eval. Octave's lsode takes it as
%   the second function of its first argument: lsode({f, jac}, x0, t).
%   Note lsode's order of arguments, state first: f(x, t).
%
%   jac = msad_lsodejac(f, p1, p2, ...) is the Jacobian of
%   f(x, t, p1, p2, ...) with respect to x (then call lsode with
%   @(x, t) f(x, t, p1, p2, ...)).
%
%   Example (Robertson's stiff chemical kinetics):
%     f = @(x, t) [-0.04*x(1) + 1e4*x(2)*x(3); 0.04*x(1) - 1e4*x(2)*x(3) - 3e7*x(2)^2; 3e7*x(2)^2];
%     lsode_options('relative tolerance', 1e-6);
%     x = lsode({f, msad_lsodejac(f)}, [1; 0; 0], [0, 0.4, 40]);
%
%   The Jacobian is returned full (lsode solves with dense LU).
%   Errors: msad:badInput for an f that cannot be called as
%   f(x, t, extra...), an x that is not a real full double array or an
%   f(x, t) that is not a real double array; msad_eval's own errors
%   (msad:unsupported, ...) for code msad cannot differentiate.
%
%   See also msad_eval, msad_odejac, lsode.
  f = msad_check_function(f, 2 + numel(varargin), 'msad_lsodejac', 'f(x, t, extra...)');
  extra = varargin;
  jac = @(x, t) lsode_jacobian(f, x, t, extra);
end

function J = lsode_jacobian(f, x, t, extra)
  msad_check_double(x, 'x', 'msad_lsodejac', false);
  [xdot, J] = msad_eval(f, x, [], t, extra{:});
  msad_check_double(xdot, 'f(x, t)', 'msad_lsodejac', true);
  J = full(J);
end

%!test
%! f = @(x, t, k) [-k * x(1) * x(2); t * x(1)^2 + x(2)];
%! jac = msad_lsodejac(f, 5);
%! assert(jac([2; 3], 0.5), [-5*3, -5*2; 0.5*2*2, 1], 1e-14);

%!test  # inside lsode: Robertson's kinetics, the same solution as with lsode's own Jacobian estimate
%! f = @(x, t) [-0.04*x(1) + 1e4*x(2)*x(3); 0.04*x(1) - 1e4*x(2)*x(3) - 3e7*x(2)^2; 3e7*x(2)^2];
%! tolerances = {lsode_options('relative tolerance'), lsode_options('absolute tolerance')};
%! restore = onCleanup(@() cellfun(@lsode_options, {'relative tolerance', 'absolute tolerance'}, tolerances));
%! lsode_options('relative tolerance', 1e-8);
%! lsode_options('absolute tolerance', 1e-12);
%! [xRef, stateRef] = lsode(f, [1; 0; 0], [0, 0.4, 40]);
%! [xAd, stateAd] = lsode({f, msad_lsodejac(f)}, [1; 0; 0], [0, 0.4, 40]);
%! assert([stateRef, stateAd], [2, 2]);
%! assert(xAd, xRef, 1e-6);
%! assert(sum(xAd(end, :)), 1, 1e-10);

%!error <takes 1 input\(s\), but it is called as f\(x, t, extra...\) with 2> msad_lsodejac(@(x) -x)
%!error <x must be a real full double array, not a 2x1 single> feval(msad_lsodejac(@(x, t) -x), single([1; 2]), 0)
