function x = fmad(value, derivs)
%FMAD  Forward-mode automatic differentiation object (drop-in for MAD's fmad).
%
%   X = FMAD(X0, DX) creates an fmad object with value X0 and directional
%   derivatives DX. DX may be given as
%     - the identity, full or sparse (eye(n), speye(n)): X's Jacobian seed,
%     - a compressed seed, numel(X0) x p (see MADcolor, MADgetseed),
%     - any numel(X0) x nd matrix (internal form, sparse kept sparse),
%     - an array of size [size(X0) nd] (external form),
%     - an array of the same size as X0: a single direction.
%   X = FMAD(X0) has one zero direction.
%
%   Functions written for doubles then run unchanged on X; for Y = F(X):
%     getvalue(Y)          the value F(X0)
%     getinternalderivs(Y) numel(Y) x nd matrix (sparse stays sparse); with
%                          DX the identity this is the Jacobian of F
%     getderivs(Y)         external form, size [size(Y) nd], full storage
%
%   Second derivatives: nest the class, e.g. for a scalar function F,
%     X = fmad(fmad(x0, eye(n)), eye(n));  Y = F(X);
%     getvalue(getvalue(Y))                   F(x0)
%     getinternalderivs(getvalue(Y))          gradient (1 x n)
%     getinternalderivs(getinternalderivs(Y)) Hessian (n x n)
%
%   fmad runs the builtins msad_eval supports (docs/builtins.md); those it
%   has no rule for (complex, spdiags, the matrix 2-norm under nesting, ...)
%   raise msad:fmad:unsupported; [f, J] = msad_eval(@fun, x) differentiates
%   such code. Products, quotients, powers, atan2 and hypot run on
%   msad_eval's own derivative rules through msad_apply (built beside
%   msad_eval by make build), with the same bits as fmad's .m rules;
%   without msad_apply, the .m rules.
%
%   Arrays filled in a loop: Y = zeros(m,1); Y(i) = X(i)^2 makes Y an fmad
%   object, as in MATLAB. Octave needs a small compiled glue for this, built
%   with mkoctfile on the first call of fmad (see fmad_octave_assign.cc);
%   without it, preallocate with
%     Y = zeros(m, 1, 'like', X);   % or fmad(zeros(m,1), zeros(m,nd))
%
%   See also getvalue, getderivs, getinternalderivs, MADcolor, MADgetseed,
%   MADuncompressJac.

  enable_assignment_promotion();
  if nargin == 0
    value = [];
  end
  if nargin == 1 && isa(value, 'fmad')
    % Class-constructor convention: fmad(x) of an fmad object is x itself.
    x = value;
    return
  end
  if ~isa(value, 'fmad')
    if ~(isnumeric(value) || islogical(value))
      error('fmad:badInput', 'fmad: the value must be numeric, not %s', class(value));
    end
    value = double(value);
  end
  if nargin < 2
    derivs = zeros(numel(value), 1);
  end
  x = class(struct('value', {value}, 'derivs', {internal_form(derivs, value)}), 'fmad');
end
