function varargout = cutest_wood(action, varargin)
% CUTEST_WOOD  Chained Wood (CUTEst CHAINWOO) in the element-function layout: 1 plus, for
% k = 1 .. n/2 - 1, the Wood function of (x(2k-1), x(2k), x(2k+1), x(2k+2)).
switch action
  case 'objf'
    x = varargin{1};
    eldom = {};
    for k = 1:numel(x) / 2 - 1
      eldom{end+1} = 2*k-1:2*k+2;
    end
    out = cutest_eval(@cutest_wood, 'elwood', x, eldom, max(nargout, 1));
    varargout = {1 + out{1}};
  case 'elwood'
    w = varargin{2};
    varargout{1} = 100 * (w(2) - w(1)^2)^2 + (1 - w(1))^2 + 90 * (w(4) - w(3)^2)^2 + (1 - w(3))^2 ...
        + 10 * (w(2) + w(4) - 2)^2 + 0.1 * (w(2) - w(4))^2;
end
end
