function varargout = cutest_rosenbrock(action, varargin)
% CUTEST_ROSENBROCK  Extended Rosenbrock in the element-function layout: element i, on
% (x(2i-1), x(2i)), is 100 (x(2i) - x(2i-1)^2)^2 + (1 - x(2i-1))^2.
switch action
  case 'objf'
    x = varargin{1};
    eldom = cell(numel(x) / 2, 1);
    for i = 1:numel(eldom)
      eldom{i} = [2*i-1, 2*i];
    end
    varargout = cutest_eval(@cutest_rosenbrock, 'elrosen', x, eldom, nargout);
  case 'elrosen'
    xe = varargin{2};
    varargout{1} = 100 * (xe(2) - xe(1)^2)^2 + (1 - xe(1))^2;
end
end
