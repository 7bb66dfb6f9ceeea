function out = pchip(x, y, varargin)
% PCHIP  Piecewise cubic Hermite interpolation preserving shape (Fritsch-Carlson slopes, as SLATEC's
%   PCHIM), written for msad (differentiated like user code, in x, y and xi): pp = pchip(x, y),
%   yi = pchip(x, y, xi). Vector y only.
  if nargin > 3
    error('Octave:invalid-fun-call', 'Invalid call to pchip');
  end
  [x, y] = __sorted_samples__('pchip', x, y, 0);
  h = diff(x);
  del = diff(y) ./ h;
  s = __pchip_slopes__(h, del);
  out = __hermite_pp__(x, y, s, varargin{:});
end
