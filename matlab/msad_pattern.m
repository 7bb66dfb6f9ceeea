function P = msad_pattern(fun, x, varargin)
% MSAD_PATTERN  Sparsity pattern of a Jacobian, by msad (not available yet).
%   P = msad_pattern(fun, x) will return the sparse logical matrix P, numel(fun(x))
%   x numel(x), that is true wherever d fun(x)_i / d x_j can be nonzero for some
%   x (a structural pattern: an entry is never dropped because its value
%   happens to be zero at this x).
%   P = msad_pattern(fun, x, p1, p2, ...) is the pattern of fun(x, p1, p2, ...)
%   with respect to x.
%
%   Intended uses:
%     rhs = @(t, y) brusselator_rhs(y);
%     P = msad_pattern(@(y) rhs(0, y), y0);
%     opts = odeset('JPattern', P);     % ode23s/ode45-family finite differences
%     spy(P);                           % see the structure
%
%   Until the msad engine computes patterns, this function checks its
%   arguments and then raises msad:unsupported. Meanwhile, msad_eval already
%   gives the exact Jacobian: pass msad_odejac / msad_fjac handles to the
%   solver instead of a pattern, or build a pattern by hand (e.g. with spdiags
%   for banded problems).
%
%   See also msad_eval, msad_odejac, msad_fjac, odeset.
  fun = msad_check_function(fun, 1 + numel(varargin), 'msad_pattern', 'fun(x, extra...)');
  msad_check_point(x, 'x', 'msad_pattern');
  error('msad:unsupported', ['msad_pattern: sparsity patterns are not available yet in this msad ', ...
        'version; msad_eval (and msad_odejac / msad_fjac) give the exact Jacobian meanwhile']);
end

%!error id=msad:unsupported msad_pattern(@(x) x.^2, [1; 2])
%!error <sparsity patterns are not available yet> msad_pattern(@(x, a) a * x, [1; 2], 3)
%!error id=msad:badInput msad_pattern(@(x) x, 'ab')
%!error <takes 1 input\(s\)> msad_pattern(@(x) x, 1, 2)
