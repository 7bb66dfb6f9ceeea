function L = msad_lagrangian(x, f, nonlcon, lambdaIneq, lambdaEq, ceq)
% MSAD_LAGRANGIAN  The Lagrangian f(x) + lambdaIneq' * c(x) + lambdaEq' * ceq(x).
%   msad_lagrangian(x, f, nonlcon, lambdaIneq, lambdaEq) takes [c, ceq] = nonlcon(x) (nonlcon
%   may be []); msad_lagrangian(x, f, c, lambdaIneq, lambdaEq, ceq) takes the two constraints as
%   separate functions (either may be []). msad_hesslag differentiates this function twice (msad
%   reads its source, so it lives on the path).
%
%   See also msad_hesslag.
  L = f(x);
  if nargin < 6
    if ~isempty(nonlcon)
      [c, ceq] = nonlcon(x);
      L = L + lambdaIneq(:)' * c(:) + lambdaEq(:)' * ceq(:);
    end
    return;
  end
  if ~isempty(nonlcon)
    c = nonlcon(x);
    L = L + lambdaIneq(:)' * c(:);
  end
  if ~isempty(ceq)
    equalities = ceq(x);
    L = L + lambdaEq(:)' * equalities(:);
  end
end
