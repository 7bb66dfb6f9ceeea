function comparison = example_brusselator_ode15s(N)
% EXAMPLE_BRUSSELATOR_ODE15S  ode15s on the 1-D Brusselator: msad Jacobian vs finite differences.
%   example_brusselator_ode15s() integrates the Brusselator reaction-diffusion
%   system on N = 30 points (60 unknowns, banded Jacobian) over t in
%   [0, 10] with ode15s twice: without a Jacobian (ode15s then estimates it
%   by finite differences, one rhs call per unknown) and with
%   odeset('Jacobian', msad_odejac(rhs)). It prints both times and counts
%   side by side and checks the two solutions agree (to the solver's
%   tolerance) with no more steps for msad.
%   The right-hand side is the scalar-loop brusselator_rhs (as users write
%   it); the finite-difference run takes seconds at N = 30 and several
%   minutes at N = 500, where msad's run still takes seconds.
%
%   comparison = example_brusselator_ode15s(N) uses N points and returns
%   both runs' figures.
%
%   See also msad_odejac, ode15s, brusselator_rhs.
  if nargin < 1
    N = 30;
  end
  add_msad_paths();
  y0 = brusselator_init(N);
  rhs = @(t, y) brusselator_rhs(y);
  tspan = [0 10];
  options = odeset('RelTol', 1e-3, 'AbsTol', 1e-6);
  reference = run_ode(@ode15s, 'ode15s, finite differences', rhs, tspan, y0, options);
  withMsad = run_ode(@ode15s, 'ode15s + msad_odejac', rhs, tspan, y0, odeset(options, 'Jacobian', msad_odejac(rhs)));
  titleText = sprintf('Brusselator, N = %d (%d unknowns), ode15s on [0, 10]', N, 2*N);
  comparison = compare_runs(titleText, reference, withMsad, odeget(options, 'RelTol'));
end
