function yi = interp1(varargin)
% INTERP1  One-dimensional interpolation, written for msad. 'linear' (the default) is msad's builtin
%   __interp1__ (all of Octave's forms); 'nearest', 'previous', 'next', 'pchip' ('cubic') and
%   'spline' of a vector of values are differentiated like user code: in y, and in x and xi where the
%   interpolant is differentiable (the piecewise constant ones only in y). Outside the samples: NaN
%   (Octave: NA), the given value, or with 'extrap' the end pieces.
  [method, extrap, data] = __interp_options__(3, varargin{:});
  if strcmp(method, 'linear')
    yi = __interp1__(varargin{:});
    return;
  end
  if numel(data) == 2
    data = {1:numel(data{1}), data{1}, data{2}};
  end
  if numel(data) ~= 3 || ~isvector(data{2})
    error('msad:unsupported', 'interp1: msad interpolates a vector Y by ''%s'' as interp1(x, y, xi, method)', method);
  end
  [x, y] = __sorted_samples__('interp1', data{1}, data{2}, 0);
  xi = data{3};
  n = numel(x);
  switch method
    case 'nearest'
      yi = __pp_eval__([x(1), (x(1:n - 1) + x(2:n)) / 2, x(n)], y(:), xi);
    case 'previous'
      yi = __pp_eval__([x, 2 * x(n) - x(n - 1)], y(:), xi);
    case 'next'
      % 'previous' on the mirrored axis: the first sample at or after each point.
      yi = __pp_eval__([-x(n:-1:1), x(2) - 2 * x(1)], reshape(y(n:-1:1), [], 1), -xi);
    case {'pchip', 'cubic'}
      yi = pchip(x, y, xi);
    case 'spline'
      yi = spline(x, y, xi);
    otherwise
      error('interp1: invalid METHOD ''%s''', method);
  end
  if ~ischar(extrap)
    yi = merge(xi < x(1) | ~(xi <= x(n)), extrap, yi);
  end
end
