function v = msad_stack_constraints(x, nonlcon, varargin)
% MSAD_STACK_CONSTRAINTS  [c(:); ceq(:)] of fmincon-style constraints [c, ceq] = nonlcon(x, ...).
%   The function msad_nonlcon differentiates (msad reads its source, so it
%   lives on the path): one Jacobian for both kinds of constraints.
%
%   See also msad_nonlcon.
  [c, ceq] = nonlcon(x, varargin{:});
  v = [c(:); ceq(:)];
end
