function varargout = cutest_dispatch(action, varargin)
% CUTEST_DISPATCH  The smallest element-function layout (issue #20): two elements over all of x
% (the second in reverse order), reached through feval of the problem's own handle, the value
% returned in a cell: f = 2 sum((x - 1).^2). Sparsity detection runs both sides of the dispatch on
% the action, so each element's feval met the 'objf' side again, which recursed through every
% element: exponential, it did not finish.
switch action
  case 'objf'
    x = varargin{1};
    varargout = cutest_eval(@cutest_dispatch, 'elobjf', x, {1:numel(x), numel(x):-1:1}, nargout);
  case 'elobjf'
    xe = varargin{2};
    varargout{1} = sum((xe - 1).^2);
end
end
