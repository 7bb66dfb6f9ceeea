function varargout = cutest_arrowhead(action, varargin)
% CUTEST_ARROWHEAD  CUTEst ARWHEAD in the element-function layout: element i, on (x(i), x(n)), is
% -4 x(i) + 3 + (x(i)^2 + x(n)^2)^2, for i = 1 .. n-1 (an arrowhead Hessian).
switch action
  case 'objf'
    x = varargin{1};
    n = numel(x);
    eldom = arrayfun(@(i) [i, n], 1:n-1, 'UniformOutput', false);
    varargout = cutest_eval(@cutest_arrowhead, 'elarrow', x, eldom, nargout);
  case 'elarrow'
    xe = varargin{2};
    varargout{1} = -4 * xe(1) + 3 + (xe(1)^2 + xe(2)^2)^2;
end
end
