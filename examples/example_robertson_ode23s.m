function comparison = example_robertson_ode23s(tFinal)
% EXAMPLE_ROBERTSON_ODE23S  ode23s on Robertson's stiff kinetics: msad Jacobian vs JPattern finite differences.
%   example_robertson_ode23s() integrates Robertson's chemical kinetics
%   (3 species, stiffness ratio ~1e11) from y = [1; 0; 0] over t in
%   [0, 40] with ode23s twice: with odeset('JPattern', P), so that ode23s
%   estimates the Jacobian by finite differences on the pattern P, and with
%   odeset('Jacobian', msad_odejac(rhs)). It prints both times and counts
%   side by side and checks the solutions agree (to the solver's tolerance)
%   with no more steps for msad.
%
%   The pattern P comes from msad_pattern when the engine provides it;
%   until then (msad_pattern raises msad:unsupported) it is written by hand
%   below. Octave's ode23s uses JPattern only to skip structural zeros: it
%   still perturbs every unknown (two rhs calls each).
%
%   comparison = example_robertson_ode23s(tFinal) integrates to tFinal and
%   returns both runs' figures.
%
%   See also msad_odejac, msad_pattern, ode23s, robertson_rhs.
  if nargin < 1
    tFinal = 40;
  end
  add_msad_paths();
  rhs = @(t, y) robertson_rhs(y);
  y0 = [1; 0; 0];
  tspan = [0 tFinal];
  options = odeset('RelTol', 1e-4, 'AbsTol', [1e-8; 1e-12; 1e-8]);
  pattern = jacobian_pattern(rhs, y0);
  reference = run_ode(@ode23s, 'ode23s, JPattern + fin. diff.', rhs, tspan, y0, odeset(options, 'JPattern', pattern));
  withMsad = run_ode(@ode23s, 'ode23s + msad_odejac', rhs, tspan, y0, odeset(options, 'Jacobian', msad_odejac(rhs)));
  titleText = sprintf('Robertson, ode23s on [0, %g]', tFinal);
  comparison = compare_runs(titleText, reference, withMsad, odeget(options, 'RelTol'));
end

function pattern = jacobian_pattern(rhs, y0)
  try
    pattern = msad_pattern(@(y) rhs(0, y), y0);
  catch err
    if ~strcmp(err.identifier, 'msad:unsupported')
      rethrow(err);
    end
    % By hand from robertson_rhs: y1' and y2' involve y1, y2, y3; y3' only y2.
    pattern = sparse([1 1 1; 1 1 1; 0 1 0]);
  end
end
