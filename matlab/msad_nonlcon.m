function con = msad_nonlcon(nonlcon, varargin)
% MSAD_NONLCON  fmincon-style constraints with their gradients, by msad.
%   con = msad_nonlcon(nonlcon) returns the handle con = @(x) with
%     [c, ceq, gc, gceq] = con(x)
%   where [c, ceq] = nonlcon(x) are the inequality (c <= 0) and equality
%   (ceq = 0) constraints and gc, gceq their gradients, one column per
%   constraint (numel(x) x numel(c), numel(x) x numel(ceq)): what fmincon's
%   'SpecifyConstraintGradient' (optimset: 'GradConstr', 'on') asks for.
%   [c, ceq] = con(x) evaluates nonlcon alone.
%
%   con = msad_nonlcon(nonlcon, p1, p2, ...) differentiates
%   nonlcon(x, p1, p2, ...) with respect to x.
%
%   Example (a disc and a line):
%     nonlcon = @(x) deal(x(1)^2 + x(2)^2 - 1, x(1) - x(2)^3);
%     [c, ceq, gc, gceq] = feval(msad_nonlcon(nonlcon), [0.5; 0.5])
%     % gc = [1; 1], gceq = [1; -0.75]
%   Octave has no fmincon: sqp takes the same constraints as
%   {@(x) -c(x), @(x) -gc(x)'} (see msad_sqp); MATLAB's fmincon takes con
%   as it is, and msad_hesslag gives its HessianFcn.
%
%   Errors: msad:badInput for a nonlcon that cannot be called as
%   nonlcon(x, extra...), or values that are not real double arrays;
%   msad_eval's own errors for code msad cannot differentiate.
%
%   See also msad_hesslag, msad_sqp, msad_fgrad, msad_eval.
  nonlcon = msad_check_function(nonlcon, 1 + numel(varargin), 'msad_nonlcon', 'nonlcon(x, extra...)');
  extra = varargin;
  con = @(x) constraints_and_gradients(nonlcon, x, extra);
end

function [c, ceq, gc, gceq] = constraints_and_gradients(nonlcon, x, extra)
  [c, ceq] = nonlcon(x, extra{:});
  if nargout < 3
    return;
  end
  msad_check_double(x, 'x', 'msad_nonlcon', false);
  msad_check_double(c, 'c', 'msad_nonlcon', true);
  msad_check_double(ceq, 'ceq', 'msad_nonlcon', true);
  stacked = @(x) msad_stack_constraints(x, nonlcon, extra{:});
  [~, J] = msad_eval(stacked, x);
  J = reshape(full(J), numel(c) + numel(ceq), numel(x));
  gc = J(1:numel(c), :).';
  gceq = J(numel(c) + 1:end, :).';
end

%!test  # gradients as columns, against the hand-derived ones
%! nonlcon = @(x, a) deal([x(1)^2 + x(2)^2 - a; x(1) * x(3)], x(1) - x(2)^3 + x(3));
%! con = msad_nonlcon(nonlcon, 4);
%! [c, ceq, gc, gceq] = con([1; 2; 3]);
%! assert(c, [1; 3]);
%! assert(ceq, 1 - 8 + 3);
%! assert(gc, [2, 3; 4, 0; 0, 1], 1e-14);
%! assert(gceq, [1; -12; 1], 1e-14);

%!test  # in sqp: a minimum on the unit circle, as with sqp's own finite differences
%! nonlcon = @(x) deal(x(1) + x(2) - 1.2, x(1)^2 + x(2)^2 - 1);
%! con = msad_nonlcon(nonlcon);
%! phi = @(x) (x(1) - 2)^2 + (x(2) - 1)^2;
%! ineq = @(x) -nthargout(1, con, x);
%! eq = @(x) nthargout(2, con, x);
%! x = sqp([0.5; 0.5], phi, {eq, @(x) nthargout(4, con, x)'}, {ineq, @(x) -nthargout(3, con, x)'});
%! xRef = sqp([0.5; 0.5], phi, eq, ineq);
%! assert(x, xRef, 1e-6);
%! assert(x, [1.2 + sqrt(0.56); 1.2 - sqrt(0.56)] / 2, 1e-6);   # on the circle and the line

%!error <takes 1 input\(s\), but it is called as nonlcon\(x, extra...\) with 2> msad_nonlcon(@(x) x, 3)
