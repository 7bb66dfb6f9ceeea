function comparison = example_robertson_ode23s(tFinal)
% EXAMPLE_ROBERTSON_ODE23S  ode23s on Robertson's stiff kinetics: msad Jacobian vs JPattern finite differences.
%   example_robertson_ode23s() integrates Robertson's chemical kinetics
%   (3 species, stiffness ratio ~1e11) from y = [1; 0; 0] over t in
%   [0, 0.4] with ode23s twice: with odeset('JPattern', P), so that ode23s
%   estimates the Jacobian by finite differences on the pattern P, and with
%   odeset('Jacobian', msad_odejac(rhs)). It prints both times and counts
%   side by side and checks the solutions agree (to the solver's tolerance)
%   with no more steps for msad.
%
%   The pattern P comes from msad_pattern ([1 1 1; 1 1 1; 0 1 0]). Octave's
%   ode23s uses JPattern only to skip structural zeros: it still perturbs
%   every unknown (two rhs calls each), by RelTol times its value, which is
%   crude for the tiny y2 (hence its many more steps).
%
%   comparison = example_robertson_ode23s(tFinal) integrates to tFinal and
%   returns both runs' figures.
%
%   See also msad_odejac, msad_pattern, ode23s, robertson_rhs.
  if nargin < 1
    tFinal = 0.4;   % seconds; the JPattern run takes minutes to t = 40
  end
  add_msad_paths();
  rhs = @(t, y) robertson_rhs(y);
  y0 = [1; 0; 0];
  tspan = [0 tFinal];
  options = odeset('RelTol', 1e-4, 'AbsTol', [1e-8; 1e-12; 1e-8]);
  pattern = msad_pattern(@robertson_rhs, y0);
  reference = run_ode(@ode23s, 'ode23s, JPattern + fin. diff.', rhs, tspan, y0, odeset(options, 'JPattern', pattern));
  withMsad = run_ode(@ode23s, 'ode23s + msad_odejac', rhs, tspan, y0, odeset(options, 'Jacobian', msad_odejac(rhs)));
  titleText = sprintf('Robertson, ode23s on [0, %g]', tFinal);
  comparison = compare_runs(titleText, reference, withMsad, odeget(options, 'RelTol'));
end

