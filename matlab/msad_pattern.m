function P = msad_pattern(fun, x, varargin)
% MSAD_PATTERN  Sparsity pattern of a Jacobian, by msad.
%   P = msad_pattern(fun, x) returns the sparse matrix P, numel(fun(x)) x
%   numel(x), with ones wherever d fun(x)_i / d x_j is structurally nonzero
%   (a double matrix, not logical: Octave's odeset rejects a logical
%   JPattern): an entry is kept even where its value happens to
%   be zero at this x, and both sides of an if whose test depends on x
%   count, so P holds for every x. (Only a loop whose trip count depends on
%   x makes P local to this x; msad_eval(..., struct('verbose', true)) says
%   so.)
%   P = msad_pattern(fun, x, p1, p2, ...) is the pattern of fun(x, p1, p2, ...)
%   with respect to x.
%
%   Example (ode23s estimates the Jacobian by finite differences on P):
%     f = @(y) [-0.04*y(1) + 1e4*y(2)*y(3); 0.04*y(1) - 1e4*y(2)*y(3) - 3e7*y(2)^2; 3e7*y(2)^2];
%     P = msad_pattern(f, [1; 0; 0])    % [1 1 1; 1 1 1; 0 1 0]
%     [t, y] = ode23s(@(t, y) f(y), [0 0.1], [1; 0; 0], odeset('JPattern', P));
%   spy(P) shows the structure. An exact Jacobian is usually better still:
%   see msad_odejac and msad_fjac.
%
%   Errors: msad:badInput for a fun that cannot be called as
%   fun(x, extra...) or an x that is not a real full double array;
%   msad_eval's own errors for code msad cannot differentiate.
%
%   See also msad_eval, msad_odejac, msad_fjac, odeset, spy.
  fun = msad_check_function(fun, 1 + numel(varargin), 'msad_pattern', 'fun(x, extra...)');
  msad_check_double(x, 'x', 'msad_pattern', false);
  [~, P] = msad_eval(fun, x, struct('jacobian', 'pattern'), varargin{:});
end

%!test  # a structural entry whose value is zero at x stays in the pattern
%! P = msad_pattern(@(x) [x(1) * x(2); x(3)^2; 5], [0; 0; 0]);
%! assert(issparse(P) && isa(P, 'double'));
%! assert(full(P), [1 1 0; 0 0 1; 0 0 0]);

%!test  # both sides of an x-dependent branch count
%! addpath(fullfile(fileparts(which('msad_pattern')), '..', 'tests', 'octave', 'fixtures'));
%! assert(full(msad_pattern(@branchy_pair, [1; 2])), [1 0; 1 1]);
%! assert(full(msad_pattern(@branchy_pair, [-1; 2])), [1 0; 1 1]);

%!test  # extra arguments; a banded pattern
%! P = msad_pattern(@(x, a) a * x(1:end-1) .* x(2:end), (1:5).', 2);
%! assert(full(P), [eye(4), zeros(4, 1)] + [zeros(4, 1), eye(4)]);

%!test  # accepted as JPattern by Octave's ode23s
%! f = @(y) [-y(1) + y(2); -10 * y(2)];
%! P = msad_pattern(f, [1; 1]);
%! [~, y] = ode23s(@(t, y) f(y), [0 1], [1; 1], odeset('JPattern', P));
%! assert(y(end, 2), exp(-10), 1e-3);

%!error id=msad:badInput msad_pattern(@(x) x, 'ab')
%!error <takes 1 input\(s\)> msad_pattern(@(x) x, 1, 2)
