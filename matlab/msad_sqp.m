function [objective, equalities, inequalities] = msad_sqp(phi, g, h, hessian)
% MSAD_SQP  Objective and constraint arguments for Octave's sqp, with derivatives by msad.
%   [objective, equalities, inequalities] = msad_sqp(phi, g, h) returns
%     objective     {phi, gradient}: the gradient (a column) of the scalar
%                   phi(x)
%     equalities    {g, jacobian}: g(x) = 0 and its Jacobian dg/dx (rows:
%                   constraints), or [] when g is []
%     inequalities  {h, jacobian}: h(x) >= 0 and its Jacobian, or [] when h
%                   is [] or not given
%   in the cell forms that sqp takes:
%     x = sqp(x0, objective, equalities, inequalities, lb, ub, maxiter, tol)
%   phi, g and h are function handles or names, each called as f(x).
%
%   msad_sqp(phi, g, h, 'hessian') adds the exact Hessian of phi as
%   objective{3}. Octave's sqp (7.x) then uses it in place of its BFGS
%   approximation of the Hessian of the Lagrangian, and passes no
%   multipliers: right when the constraints are linear (their curvature is
%   zero) and phi is convex near the solution; with nonlinear constraints
%   leave it out (sqp's BFGS then accounts for their curvature). The Hessian
%   of the Lagrangian, which fmincon-style solvers take, is msad_hesslag.
%
%   Example (sqp's own example: a 5-variable problem with 3 equalities):
%     phi = @(x) exp(prod(x)) - 0.5*(x(1)^3 + x(2)^3 + 1)^2;
%     g = @(x) [sumsq(x) - 10; x(2)*x(3) - 5*x(4)*x(5); x(1)^3 + x(2)^3 + 1];
%     [objective, equalities] = msad_sqp(phi, g);
%     [x, obj, info, iter] = sqp([-1.8; 1.7; 1.9; -0.8; -0.8], objective, equalities);
%
%   Derivatives are exact and returned full (sqp's qp is dense).
%   Errors: msad:badInput for a function that cannot be called as f(x);
%   msad_eval's own errors (msad:unsupported, ...) for code msad cannot
%   differentiate.
%
%   See also msad_eval, msad_fgrad, msad_hesslag, msad_nonlcon, sqp.
  if nargin < 3
    h = [];
  end
  phi = msad_check_function(phi, 1, 'msad_sqp', 'phi(x)');
  objective = {phi, @(x) gradient_of(phi, x)};
  if nargin > 3
    if ~strcmpi(hessian, 'hessian')
      error('msad:badInput', 'msad_sqp: the fourth argument may only be ''hessian'', not %s', msad_describe(hessian));
    end
    objective{3} = @(x) hessian_of(phi, x);
  end
  equalities = constraint_cell(g);
  inequalities = constraint_cell(h);
end

function pair = constraint_cell(c)
  if isempty(c)
    pair = [];
    return;
  end
  c = msad_check_function(c, 1, 'msad_sqp', 'c(x)');
  pair = {c, @(x) jacobian_of(c, x)};
end

function g = gradient_of(phi, x)
  msad_check_double(x, 'x', 'msad_sqp', false);
  [~, g] = msad_eval(phi, x);
  g = full(g(:));
end

function H = hessian_of(phi, x)
  msad_check_double(x, 'x', 'msad_sqp', false);
  [~, ~, H] = msad_eval(phi, x);
  H = full(H);
end

function J = jacobian_of(c, x)
  msad_check_double(x, 'x', 'msad_sqp', false);
  [cx, J] = msad_eval(c, x);
  msad_check_double(cx, 'c(x)', 'msad_sqp', true);
  % A scalar constraint's derivative comes as a gradient column: sqp wants a row.
  J = full(reshape(J, numel(cx), numel(x)));
end

%!test  # sqp's own example: the same solution as with sqp's finite differences
%! phi = @(x) exp(prod(x)) - 0.5*(x(1)^3 + x(2)^3 + 1)^2;
%! g = @(x) [sumsq(x) - 10; x(2)*x(3) - 5*x(4)*x(5); x(1)^3 + x(2)^3 + 1];
%! x0 = [-1.8; 1.7; 1.9; -0.8; -0.8];
%! [xRef, objRef] = sqp(x0, phi, g, []);
%! [objective, equalities, inequalities] = msad_sqp(phi, g);
%! assert(isempty(inequalities) && numel(objective) == 2);
%! [x, obj, ~, iter] = sqp(x0, objective, equalities, inequalities);
%! assert(x, [-1.717143501952599; 1.595709610928535; 1.827245880097156; -0.763643103133572; -0.763643068453300], 1e-6);
%! assert(x, xRef, 1e-6);
%! assert(obj, objRef, 1e-10);
%! assert(norm(g(x)) < 1e-8);

%!test  # derivatives against known values; an inequality as a row Jacobian
%! [objective, ~, inequalities] = msad_sqp(@(x) x(1)^2 * x(2), [], @(x) 1 - x' * x, 'hessian');
%! assert(objective{2}([2; 3]), [12; 4], 1e-14);
%! assert(objective{3}([2; 3]), [6, 4; 4, 0], 1e-14);
%! assert(inequalities{2}([2; 3]), [-4, -6], 1e-14);

%!test  # a nonlinear inequality: Rosenbrock inside the unit disc, as with finite differences
%! rosen = @(x) 100 * (x(2) - x(1)^2)^2 + (1 - x(1))^2;
%! [objective, ~, inside] = msad_sqp(rosen, [], @(x) 1 - x' * x);
%! [x, obj] = sqp([0; 0], objective, [], inside, [-2; -2], [2; 2]);
%! [xRef, objRef] = sqp([0; 0], rosen, [], @(x) 1 - x' * x, [-2; -2], [2; 2]);
%! assert(x, xRef, 1e-5);
%! assert(x, [0.786415; 0.617698], 1e-5);
%! assert(x' * x, 1, 1e-8);

%!test  # the exact Hessian with a linear constraint: Newton-like steps, fewer iterations than BFGS
%! rosen = @(x) sum(100 * (x(2:end) - x(1:end-1).^2).^2 + (1 - x(1:end-1)).^2);
%! x0 = 0.5 * ones(4, 1);   # where rosen is convex: an indefinite H misleads sqp
%! below = @(x) 3.5 - sum(x);
%! [objective, ~, inequality] = msad_sqp(rosen, [], below);
%! [xBfgs, ~, ~, iterBfgs] = sqp(x0, objective, [], inequality, [], [], 500);
%! [objective, ~, inequality] = msad_sqp(rosen, [], below, 'hessian');
%! [x, obj, info, iter] = sqp(x0, objective, [], inequality, [], [], 500);
%! assert(info, 101);
%! assert(x, xBfgs, 1e-4);
%! assert(sum(x) <= 3.5 + 1e-10);
%! assert(iter < iterBfgs);

%!error <takes 0 input\(s\), but it is called as phi\(x\) with 1> msad_sqp(@() 1, [])
%!error <the fourth argument may only be 'hessian'> msad_sqp(@(x) x' * x, [], [], 'newton')
