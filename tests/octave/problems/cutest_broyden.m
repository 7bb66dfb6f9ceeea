function varargout = cutest_broyden(action, varargin)
% CUTEST_BROYDEN  Broyden tridiagonal as a sum of squares in the element-function layout: element i,
% on (x(i-1), x(i), x(i+1)) with x(0) = x(n+1) = 0, is ((3 - 2 x(i)) x(i) - x(i-1) - 2 x(i+1) + 1)^2.
switch action
  case 'objf'
    x = varargin{1};
    n = numel(x);
    padded = [0; x(:); 0];
    eldom = cell(1, n);
    for i = 1:n
      eldom{i} = i:i+2;
    end
    varargout = cutest_eval(@cutest_broyden, 'elbroyden', padded, eldom, nargout);
  case 'elbroyden'
    xe = varargin{2};
    varargout{1} = ((3 - 2 * xe(2)) * xe(2) - xe(1) - 2 * xe(3) + 1)^2;
end
end
