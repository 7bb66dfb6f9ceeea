function comparison = example_enzyme_least_squares(repeats, solverName)
% EXAMPLE_ENZYME_LEAST_SQUARES  Enzyme-reaction fit (MINPACK-2): msad Jacobian vs finite differences.
%   example_enzyme_least_squares() fits the 4 parameters of the enzyme
%   reaction model to its 11 measurements (minimum sum of squares 3.075e-4)
%   twice: with the solver's finite differences and with msad_fjac and
%   optimset('Jacobian', 'on'); each fit is repeated 20 times (as when
%   fitting many data sets) to time more than the first call's preparation.
%   It prints both times and counts side by side and checks the fits agree
%   with no more iterations for msad.
%
%   Solver: lsqnonlin from the optim package when it is installed (it is
%   loaded here); otherwise Octave's own fsolve, which minimises
%   sum(F.^2) for overdetermined systems (more residuals than unknowns)
%   with the same trust-region Gauss-Newton model.
%
%   comparison = example_enzyme_least_squares(repeats, solverName) repeats
%   each fit repeats times, uses solverName ('lsqnonlin', 'fsolve' or
%   'auto', the default: as above) and returns both runs' figures.
%
%   See also msad_fjac, lsqnonlin, fsolve, enzyme_residual.
  if nargin < 1
    repeats = 20;
  end
  if nargin < 2
    solverName = 'auto';
  end
  add_msad_paths();
  [solver, solverName] = least_squares_solver(solverName);
  x0 = enzyme_init();
  options = optimset('TolFun', 1e-8, 'TolX', 1e-8);
  reference = run_solver(solver, [solverName, ', finite differences'], @enzyme_residual, x0, options, repeats);
  withMsad = run_solver(solver, [solverName, ' + msad_fjac'], msad_fjac(@enzyme_residual), x0, ...
                        optimset(options, 'Jacobian', 'on'), repeats);
  titleText = sprintf('Enzyme reaction (11 residuals, 4 unknowns), %s, %d fits', solverName, repeats);
  comparison = compare_runs(titleText, reference, withMsad, 1e-6);
end

function [solver, name] = least_squares_solver(name)
  wanted = strcmp(name, 'lsqnonlin') || strcmp(name, 'auto');
  if wanted && ~exist('lsqnonlin', 'file') && any(strcmp('optim', cellfun(@(p) p.name, pkg('list'), 'UniformOutput', false)))
    % optim loads statistics, whose replacements of core functions warn.
    previous = warning('off', 'Octave:shadowed-function');
    pkg('load', 'optim');
    warning(previous);
  end
  if wanted && exist('lsqnonlin', 'file')
    solver = @lsqnonlin_unbounded;
    name = 'lsqnonlin';
  elseif strcmp(name, 'lsqnonlin')
    error('msad:example', 'lsqnonlin is not available: install the optim package');
  else
    solver = @fsolve;
    name = 'fsolve';
  end
end

function [x, resnorm, exitflag, output] = lsqnonlin_unbounded(fun, x0, options)
  % In run_solver's [x, fval, info, output] form; optim reports iterations as niter.
  [x, resnorm, ~, exitflag, output] = lsqnonlin(fun, x0, [], [], options);
  output.iterations = output.niter;
end
