function run = run_solver(solver, label, fun, x0, options, repeats)
% RUN_SOLVER  Timed solves with fsolve, fminunc or another [x, fval, info, output] = solver(fun, x0, options).
%   run = run_solver(solver, label, fun, x0, options) returns the struct
%   fields label, seconds (the whole solve), counts (output.iterations and
%   output.funcCount, which includes the solver's finite-difference calls;
%   NaN when the solver does not report it) and solution (x). It errors
%   (msad:example) if the solver reports no convergence (info <= 0).
%   run_solver(..., repeats) solves repeats times (as when fitting many data
%   sets) and reports the total time; the counts are those of one solve.
  if nargin < 6
    repeats = 1;
  end
  started = tic;
  for k = 1:repeats
    [x, ~, info, output] = solver(fun, x0, options);
  end
  seconds = toc(started);
  if info <= 0
    error('msad:example', '%s did not converge (info = %d)', label, info);
  end
  functionCalls = NaN;
  if isfield(output, 'funcCount')
    functionCalls = output.funcCount;
  end
  counts = struct('iterations', output.iterations, 'function_calls', functionCalls);
  run = struct('label', label, 'seconds', seconds, 'counts', counts, 'solution', x);
end
