function jac = msad_odejac(rhs, varargin)
% MSAD_ODEJAC  Jacobian handle d(rhs)/dy for Octave/MATLAB ODE solvers, by msad.
%   jac = msad_odejac(rhs) returns the two-input handle jac = @(t, y) that
%   evaluates the Jacobian d rhs(t, y) / d y with msad_eval, for
%   odeset('Jacobian', jac) in ode15s, ode23s and the like.
%   rhs is a function handle or name called as rhs(t, y).
%
%   jac = msad_odejac(rhs, p1, p2, ...) passes extra arguments:
%   the Jacobian is that of rhs(t, y, p1, p2, ...) with respect to y.
%
%   Example (stiff Van der Pol, mu = 100):
%     vdp = @(t, y, mu) [y(2); mu * (1 - y(1)^2) * y(2) - y(1)];
%     opts = odeset('Jacobian', msad_odejac(vdp, 100));
%     [t, y] = ode15s(@(t, y) vdp(t, y, 100), [0 300], [2; 0], opts);
%
%   Notes on Octave's ode15s (7.x):
%   - the Jacobian handle must take exactly two inputs (t, y); this one does.
%   - JPattern is ignored by ode15s; it only uses a Jacobian function. A
%     sparse Jacobian (when msad returns one) selects its sparse KLU solver.
%   - with a state-dependent mass matrix (MStateDependence other than
%     'none') ode15s drops any user Jacobian, with the warning
%     ode15s:mass_state_dependent_provided, and uses its own finite
%     differences.
%   ode23s uses the Jacobian as given (and JPattern only without one).
%
%   The Jacobian is exact (to rounding), not a finite-difference estimate.
%   Errors: msad:badInput for a rhs that cannot be called as
%   rhs(t, y, extra...), a y that is not a real full double array or a
%   rhs(t, y) that is not a real double array;
%   msad_eval's own errors (msad:unsupported, ...) for code msad cannot
%   differentiate.
%
%   See also msad_eval, msad_fjac, msad_fgrad, msad_pattern, odeset.
  callForm = 'rhs(t, y, extra...)';
  rhs = msad_check_function(rhs, 2 + numel(varargin), 'msad_odejac', callForm);
  extra = varargin;
  % x = t is msad_eval's first argument; wrt = 2 differentiates the next one, y.
  withRespectToY = struct('wrt', 2);
  jac = @(t, y) ode_jacobian(rhs, t, y, withRespectToY, extra);
end

function J = ode_jacobian(rhs, t, y, withRespectToY, extra)
  msad_check_double(y, 'y', 'msad_odejac', false);
  [dydt, J] = msad_eval(rhs, t, withRespectToY, y, extra{:});
  msad_check_double(dydt, 'rhs(t, y)', 'msad_odejac', true);
end

%!shared rhs, y0
%! rhs = @(t, y, k) [-k * y(1) * y(2); t * y(1)^2 + y(2)];
%! y0 = [2; 3];

%!test
%! jac = msad_odejac(rhs, 5);
%! assert(nargin(jac), 2);
%! assert(jac(0.5, y0), [-5*3, -5*2; 0.5*2*2, 1], 1e-14);

%!test  # a function given by name; its Jacobian depends on t
%! addpath(fullfile(fileparts(which('msad_odejac')), '..', 'tests', 'octave', 'fixtures'));
%! jac = msad_odejac('time_dependent_rhs');
%! assert(jac(2, [1; 4]), [2, 0; 0, 3*16], 1e-14);

%!test  # inside ode15s: same solution as without a Jacobian, exact Jacobian
%! vdp = @(t, y) [y(2); 10 * (1 - y(1)^2) * y(2) - y(1)];
%! opts = odeset('RelTol', 1e-6, 'AbsTol', 1e-8);
%! [~, yFd] = ode15s(vdp, [0 1], [2; 0], opts);
%! [~, yAd] = ode15s(vdp, [0 1], [2; 0], odeset(opts, 'Jacobian', msad_odejac(vdp)));
%! assert(yAd(end, :), yFd(end, :), 1e-5);

%!error id=msad:badInput msad_odejac(42)
%!error <takes 1 input\(s\), but it is called as rhs\(t, y, extra...\) with 2> msad_odejac(@(y) -y)
%!error <with 3 input> msad_odejac(@(t, y) -y, 7)
%!error <y must be a real full double array, not a 2x1 single> feval(msad_odejac(@(t, y) -y), 0, single([1; 2]))
%!error <y must be a real full double array, not a 1x1 complex double> feval(msad_odejac(@(t, y) -y), 0, 1i)
%!error id=msad:badInput feval(msad_odejac(@(t, y) -y), 0, 'ab')
%!error <rhs\(t, y\) must be a real double array, not a 2x1 logical> feval(msad_odejac(@(t, y) y > 0), 0, [1; 2])
