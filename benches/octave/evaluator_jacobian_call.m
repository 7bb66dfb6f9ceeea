function evaluator_jacobian_call(evaluate, f, x, varargin)
% EVALUATOR_JACOBIAN_CALL  msad_jacobian_call for a given build of msad_eval (a function handle, e.g.
%   @msad_eval_main, a copy of another branch's MEX): one call asking for value and Jacobian.
  [~, ~] = evaluate(f, x, varargin{:});
end
