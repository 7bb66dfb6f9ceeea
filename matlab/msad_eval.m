function varargout = msad_eval(varargin)
%MSAD_EVAL  Value and Jacobian of an Octave/MATLAB function, by automatic differentiation.
%
%   F = msad_eval(FUN, X) evaluates F = FUN(X).
%   [F, J] = msad_eval(FUN, X) also returns the Jacobian J = dF/dX, of size numel(F) x numel(X),
%   sparse when that pays. For a scalar F, J is the gradient: a numel(X) x 1 column (the
%   transposed Jacobian, as fminunc wants with 'GradObj'), computed in reverse mode when X is large.
%   [F, G, H] = msad_eval(FUN, X) for a scalar F also returns the Hessian H (numel(X) x numel(X),
%   sparse when that pays), exact: Hessian-vector products by forward over reverse mode, one per
%   colour of H's sparsity pattern (detected on the first call, symmetric colouring). A function
%   using a builtin without a second-order rule for its operands (the matrix 2-norm, A\b with a
%   non-square A, det or inv of a singular matrix) raises msad:notDifferentiable naming it; its
%   gradient is still available.
%   [F, J] = msad_eval(FUN, X, OPTS, P1, P2, ...) evaluates FUN(X, P1, P2, ...).
%
%   FUN is a function handle (@name, or an anonymous function: its captured variables are read)
%   or a function name. msad reads the .m source of FUN and of the functions it calls and
%   differentiates it natively; a source file changed between calls is read again.
%   X is a real double array (full or sparse).
%
%   Complex values inside FUN carry derivatives in forward mode. X being real, a complex z = u + i*v
%   has the derivatives of its parts, dz = du + i*dv: holomorphic functions (exp, log, sqrt, sin,
%   cos, powers, products, quotients) follow f'(z)*dz; real, imag, conj, abs and angle are defined
%   through the parts (d abs(z) = (u*du + v*dv)/abs(z), d angle(z) = (u*dv - v*du)/abs(z)^2). A real
%   F gets a real J; a complex F a complex J = d real(F)/dX + i*d imag(F)/dX (full). Reverse mode
%   carries the adjoints of the real and imaginary parts (the gradient of a real scalar F), and so do
%   Hessians of a real scalar F (a complex F has none: msad:badInput). Complex sparse matrices (a
%   captured Ybus) stay sparse as constants:
%   Ybus*V differentiates in O(nnz). For a complex unknown z, pass X = [real(z); imag(z)] and build z
%   inside FUN with complex(X(1:n), X(n+1:end)).
%
%   OPTS is [] or a struct with any of these fields, in any case ('Jacobian' or 'jacobian'; a
%   field set to [] keeps its default). Name-value pairs may take its place, then without extra
%   arguments: msad_eval(FUN, X, 'Jacobian', 'sparse', 'Verbose', 'on').
%     mode      'auto' (default) | 'forward' | 'reverse': 'auto' uses reverse mode (one backward
%               sweep) when F is scalar and numel(X) > 8, forward mode otherwise; reverse mode on a
%               non-scalar F runs forward
%     jacobian  'auto' (default) | 'full' | 'sparse': storage of J (and of H)
%     sparsity  'auto' (default: detected) | 'none' (all directions; for H: a full H)
%     seed      a numel(X) x p matrix S: the second output is the compressed product J*S
%               (numel(F) x p, full) from p forward directions, MAD's compressed mode; leave
%               mode, jacobian and sparsity unset
%     wrt       the argument to differentiate: 1 = X (default), 2 = P1, 3 = P2, ...
%     threads   number of threads, at most 256 (default: all cores)
%     verbose   true or 'on': print what msad did (sparsity pattern, colours, cache hits, plans
%               cached) and how long parsing, analysis, detection, colouring and evaluation took
%   A first call that has taken more than a second when its preparation ends prints a line
%   saying so, verbose or not.
%
%   Errors carry an identifier:
%     msad:parse              syntax error in FUN's source (file:line:col and a caret line)
%     msad:unsupported        a construct or builtin msad does not support yet
%     msad:notDifferentiable  an active value reaches something without a derivative
%     msad:badInput           wrong arguments or options (H for a non-scalar F)
%     msad:runtime            FUN raised an error (an identifier of its own, or Octave's such as
%                             Octave:index-out-of-bounds, is kept)
%     Octave:undefined-function  FUN, or a function it calls, is not on the path
%     msad:internal           a bug in msad: please report it
%
%   msad keeps what it learned about FUN (parsed code, sparsity, colouring) between calls, and
%   notices an edit of any file it read, and a change of the path or the current folder that
%   makes a name resolve to another file, on the next call; "clear msad_eval" frees it. It keeps
%   at most 64 such plans (about 256 MB of prepared code), dropping the least recently used. A
%   value an anonymous FUN captured that changes between calls (t in @(y) rhs(t, y)) is passed
%   to its plan like an extra argument instead of preparing FUN again.
%
%   Examples:
%     f = @(x) [x(1)^2 + sin(x(2)); exp(x(1) * x(2))];
%     [F, J] = msad_eval(f, [1; 2])
%     [f, g, H] = msad_eval(@(x) 100 * (x(2) - x(1)^2)^2 + (1 - x(1))^2, [-1.2; 1])
%
%   See also msad_demo.

  % Only reached when msad_eval.mex (msad_eval.mexa64 for MATLAB) is missing beside this file.
  error('msad:notBuilt', 'msad_eval is not built: run "make build" in the msad repository');
end

%!shared folder
%! % Function files written by the tests go to a fresh folder on the path (removed by the last test).
%! folder = tempname();
%! mkdir(folder);
%! addpath(folder);
%!function write_function(folder, name, body)
%!  fid = fopen(fullfile(folder, [name '.m']), 'w');
%!  fprintf(fid, 'function y = %s(x)\n  %s\nend\n', name, body);
%!  fclose(fid);
%!endfunction

%!test  # the help example, against the Jacobian by hand
%! f = @(x) [x(1)^2 + sin(x(2)); exp(x(1) * x(2))];
%! [F, J] = msad_eval(f, [1; 2]);
%! assert(F, f([1; 2]), 1e-15);
%! assert(full(J), [2, cos(2); 2 * exp(2), exp(2)], 1e-13);

%!test  # value only; a function name; J is numel(F) x numel(X), columns in X(:) order
%! write_function(folder, 'msad_bist_cube', 'y = x.^3;');
%! assert(msad_eval('msad_bist_cube', [1; 2]), [1; 8]);
%! [~, J] = msad_eval(@(X) X.^2, [1 2; 3 4]);
%! assert(full(J), diag(2 * [1 3 2 4]), 1e-14);

%!test  # Hessian of Rosenbrock's function, exact
%! [f, g, H] = msad_eval(@(x) 100 * (x(2) - x(1)^2)^2 + (1 - x(1))^2, [-1.2; 1]);
%! assert(f, 24.2, 1e-12);
%! assert(g, [-215.6; -88], 1e-12);
%! assert(full(H), [1330, 480; 480, 200], 1e-12);

%!error id=msad:badInput [~, ~, ~] = msad_eval(@(x) x.^2, [1; 2])
%!error <second-order \(Hessian\) rule for 'norm'> [~, ~, ~] = msad_eval(@(x) norm(reshape(x, 2, 2)), [1; 2; 3; 5])

%!test  # det(A) = x1 x4 - x2 x3: H pairs x1 with x4 and x2 with x3
%! [~, ~, H] = msad_eval(@(x) det(reshape(x, 2, 2)), [1; 2; 3; 5]);
%! assert(full(H), [0 0 0 1; 0 0 -1 0; 0 -1 0 0; 1 0 0 0], 1e-14);

%!test  # extra arguments and opts.wrt
%! g = @(x, p) p * x.^2;
%! [F, J] = msad_eval(g, [1; 2], [], 3);
%! assert(F, [3; 12]);
%! assert(full(J), diag([6, 12]), 1e-14);
%! [~, Jp] = msad_eval(g, [1; 2], struct('wrt', 2), 3);
%! assert(full(Jp), [1; 4], 1e-14);

%!test  # captured variables of an anonymous function are read
%! A = [1 2; 3 4];
%! [~, J] = msad_eval(@(x) A * x, [5; 6]);
%! assert(full(J), A, 1e-15);

%!test  # opts.jacobian chooses the storage; both hold the same values
%! bidiagonal = @(x) [x(1:end-1) .* x(2:end); 0] + 2 * x;
%! x = (1:30).';
%! [~, Jfull] = msad_eval(bidiagonal, x, struct('jacobian', 'full'));
%! [~, Jsparse] = msad_eval(bidiagonal, x, struct('jacobian', 'sparse'));
%! assert(~issparse(Jfull) && issparse(Jsparse));
%! assert(full(Jsparse), Jfull, 1e-14);

%!test  # a given sparsity pattern is used for the compressed Jacobian
%! banded = @(x) x.^2 + [x(2:end); 0];
%! x = (1:20).';
%! pattern = spdiags(ones(20, 2), [0 1], 20, 20);
%! [~, J] = msad_eval(banded, x, struct('sparsity', pattern));
%! assert(full(J), diag(2 * x) + diag(ones(19, 1), 1), 1e-14);

%!test  # opts.seed returns the compressed product J*S, on every call
%! f = @(x) [x(1:end-1) .* x(2:end); x(end)^2];
%! x = (1:6).';
%! S = [1 0; 0 1; 1 0; 0 1; 1 0; 0 1];
%! [~, J] = msad_eval(f, x, struct('jacobian', 'full'));
%! for call = 1:2
%!   [F, B] = msad_eval(f, x, struct('seed', S));
%!   assert(F, f(x));
%!   assert(B, J * S, 1e-14);
%! end

%!test  # the cache notices an edited source file
%! write_function(folder, 'msad_bist_edited', 'y = 2 * x;');
%! [~, J] = msad_eval(@msad_bist_edited, 1);
%! assert(full(J), 2);
%! pause(1.1);  % a newer modification time, even with 1 s resolution
%! write_function(folder, 'msad_bist_edited', 'y = 5 * x;');
%! [~, J] = msad_eval(@msad_bist_edited, 1);
%! assert(full(J), 5);

%!error id=msad:badInput msad_eval(@(x) x)
%!error id=msad:badInput msad_eval(@(x) x, 'ab')
%!error id=msad:badInput msad_eval(@(x) x, 1, struct('jacobain', 'full'))
%!error id=msad:badInput msad_eval(@(x) x, 1, struct('wrt', 2))
%!error id=msad:badInput msad_eval(42, 1)
%!error id=msad:badInput msad_eval(@(x) x, [1; 2], struct('seed', ones(3, 1)))
%!error id=msad:badInput msad_eval(@(x) x, [1; 2], struct('seed', eye(2), 'jacobian', 'sparse'))
%!error id=msad:unsupported msad_eval(@(x) schur([x, 1; 1, x]), 1)
%!error id=Octave:index-out-of-bounds msad_eval(@(x) x(3), [1; 2])
%!error id=msad:runtime msad_eval(@(x) error('no identifier'), 1)
%!test  # last: remove the folder of written functions
%! rmpath(folder);
%! confirm_recursive_rmdir(false, 'local');
%! rmdir(folder, 's');
