function fun = msad_check_function(fun, nInputs, caller, callForm)
% MSAD_CHECK_FUNCTION  The user's function as a handle, checked before any solver runs.
%   fun = msad_check_function(fun, nInputs, caller, callForm) accepts a
%   function handle or a function name and errors with msad:badInput when it
%   cannot be called as callForm (text such as 'F(x, extra...)') with
%   nInputs inputs and one output. Checking here, when the glue handle is
%   built, reports the mistake at the user's call instead of deep inside a
%   solver.
  if ischar(fun) && isrow(fun) && ~isempty(fun)
    fun = str2func(fun);
  end
  if ~is_function_handle(fun)
    error('msad:badInput', '%s: the first argument must be a function handle or a function name, not a %s', ...
          caller, msad_describe(fun));
  end
  % Built-in functions have no inspectable arity; msad_eval reports them itself.
  try
    declaredInputs = nargin(fun);
    declaredOutputs = nargout(fun);
  catch
    return;
  end
  % A negative count means varargin: enough inputs whatever the call.
  if declaredInputs >= 0 && declaredInputs < nInputs
    error('msad:badInput', '%s: %s takes %d input(s), but it is called as %s with %d input(s)', ...
          caller, func2str(fun), declaredInputs, callForm, nInputs);
  end
  if declaredOutputs == 0
    error('msad:badInput', '%s: %s returns no output, but it is called as %s and must return one', ...
          caller, func2str(fun), callForm);
  end
end

