function comparison = example_broyden_fsolve(n)
% EXAMPLE_BROYDEN_FSOLVE  fsolve on the Broyden tridiagonal system: msad Jacobian vs finite differences.
%   example_broyden_fsolve() solves F(x) = 0 for the Broyden tridiagonal
%   function (n = 1000, start x = -1) with fsolve twice: without a Jacobian
%   (fsolve estimates it by forward differences, n calls of F per Jacobian)
%   and with fsolve(msad_fjac(F), x0, optimset('Jacobian', 'on')). It prints
%   both times and counts side by side and checks the roots agree with no
%   more iterations for msad.
%
%   comparison = example_broyden_fsolve(n) uses n unknowns and returns both
%   runs' figures.
%
%   See also msad_fjac, fsolve, broyden_tridiag.
  if nargin < 1
    n = 1000;
  end
  add_msad_paths();
  x0 = -ones(n, 1);
  options = optimset('TolFun', 1e-10, 'TolX', 1e-10);
  reference = run_solver(@fsolve, 'fsolve, finite differences', @broyden_tridiag, x0, options);
  withMsad = run_solver(@fsolve, 'fsolve + msad_fjac', msad_fjac(@broyden_tridiag), x0, ...
                        optimset(options, 'Jacobian', 'on'));
  titleText = sprintf('Broyden tridiagonal, n = %d, fsolve', n);
  comparison = compare_runs(titleText, reference, withMsad, 1e-8);
end
