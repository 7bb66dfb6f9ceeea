function varargout = msad_eval(varargin)
%MSAD_EVAL  Value and Jacobian of an Octave/MATLAB function, by automatic differentiation.
%
%   F = msad_eval(FUN, X) evaluates F = FUN(X).
%   [F, J] = msad_eval(FUN, X) also returns the Jacobian J = dF/dX, of size numel(F) x numel(X),
%   sparse when that pays. For a scalar F, J is the gradient: a numel(X) x 1 column (the
%   transposed Jacobian, as fminunc wants with 'GradObj'), computed in reverse mode when X is large.
%   [F, J] = msad_eval(FUN, X, OPTS, P1, P2, ...) evaluates FUN(X, P1, P2, ...).
%
%   FUN is a function handle (@name, or an anonymous function: its captured variables are read)
%   or a function name. msad reads the .m source of FUN and of the functions it calls and
%   differentiates it natively; a source file changed between calls is read again.
%   X is a real double array (full or sparse).
%
%   OPTS is [] or a struct with any of these fields (a field set to [] keeps its default):
%     mode      'auto' (default) | 'forward' | 'reverse': 'auto' uses reverse mode (one backward
%               sweep) when F is scalar and numel(X) > 8, forward mode otherwise; reverse mode on a
%               non-scalar F runs forward
%     jacobian  'auto' (default) | 'full' | 'sparse': storage of J
%     wrt       the argument to differentiate: 1 = X (default), 2 = P1, 3 = P2, ...
%     threads   number of threads (default: all cores)
%     verbose   true: print what msad did (sparsity pattern, colours, cache hits, timings)
%
%   Errors carry an identifier:
%     msad:parse              syntax error in FUN's source (file:line:col and a caret line)
%     msad:unsupported        a construct or builtin msad does not support yet
%     msad:notDifferentiable  an active value reaches something without a derivative
%     msad:badInput           wrong arguments or options
%     msad:runtime            FUN raised an error (an identifier of its own is kept)
%     msad:internal           a bug in msad: please report it
%
%   msad keeps what it learned about FUN (parsed code, sparsity, colouring) between calls;
%   "clear msad_eval" frees it.
%
%   Example:
%     f = @(x) [x(1)^2 + sin(x(2)); exp(x(1) * x(2))];
%     [F, J] = msad_eval(f, [1; 2])
%
%   See also msad_demo.

  % Only reached when msad_eval.mex (msad_eval.mexa64 for MATLAB) is missing beside this file.
  error('msad:notBuilt', 'msad_eval is not built: run "make build" in the msad repository');
end
