function varargout = cutest_dispatch(action, varargin)
% CUTEST_DISPATCH  The smallest element-function layout (issue #20): one element over all of x,
% reached through feval of the problem's own handle, its value returned in a cell.
switch action
  case 'objf'
    x = varargin{1};
    varargout = cutest_eval(@cutest_dispatch, 'elobjf', x, {1:numel(x)}, nargout);
  case 'elobjf'
    xe = varargin{2};
    varargout{1} = sum((xe - 1).^2);
end
end
