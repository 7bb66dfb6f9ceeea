function comparison = example_rosenbrock_fminunc(n, objective)
% EXAMPLE_ROSENBROCK_FMINUNC  fminunc on the extended Rosenbrock function: msad gradient vs finite differences.
%   example_rosenbrock_fminunc() minimises the extended Rosenbrock function
%   (n = 40, start [-1.2 1 -1.2 1 ...], minimum 0 at ones) with fminunc
%   twice: without a gradient (fminunc estimates it by forward differences,
%   n calls of f per gradient) and with fminunc(msad_fgrad(f), x0,
%   optimset('GradObj', 'on')). It prints both times and counts side by
%   side and checks the minimisers agree with no more iterations for msad.
%   With fminunc's default tolerances both runs stop within about 2e-3 of
%   the minimiser at n = 1000, so they are compared to 5e-3. The
%   finite-difference run cannot get much closer: with TolFun = TolX = 1e-12
%   it stops (info = -3) about 1e-5 away, where the msad run reaches 4e-8.
%
%   comparison = example_rosenbrock_fminunc(n, objective) uses n unknowns and
%   the objective @ext_rosenbrock_vec (default, vectorised) or
%   @ext_rosenbrock (scalar loops: its finite-difference run at n = 1000
%   takes hours, about 8 ms per call times 1000 calls per gradient), and
%   returns both runs' figures.
%
%   See also msad_fgrad, fminunc, ext_rosenbrock.
  if nargin < 1
    n = 40;   % seconds; the finite-difference run grows as n^2 (n = 1000: minutes)
  end
  add_msad_paths();
  if nargin < 2
    objective = @ext_rosenbrock_vec;
  end
  x0 = repmat([-1.2; 1], n/2, 1);
  % Finite differences count n calls per gradient against MaxFunEvals.
  options = optimset('MaxIter', 5000, 'MaxFunEvals', 1e8);
  reference = run_solver(@fminunc, 'fminunc, finite differences', objective, x0, options);
  withMsad = run_solver(@fminunc, 'fminunc + msad_fgrad', msad_fgrad(objective), x0, optimset(options, 'GradObj', 'on'));
  titleText = sprintf('Extended Rosenbrock, n = %d, fminunc (%s)', n, func2str(objective));
  comparison = compare_runs(titleText, reference, withMsad, 5e-3);
end
