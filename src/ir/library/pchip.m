function out = pchip(x, y, xi)
% PCHIP  Piecewise cubic Hermite interpolation preserving shape (Fritsch-Carlson slopes, as SLATEC's
%   PCHIM), written for msad (differentiated like user code, in x, y and xi): pp = pchip(x, y),
%   yi = pchip(x, y, xi). Vector y only.
  [x, y] = __sorted_samples__('pchip', x, y, 0);
  n = numel(x);
  h = diff(x);
  del = diff(y) ./ h;
  s = __pchip_slopes__(h, del);
  % The values at xi without a struct, whose x-dependent fields reverse mode would refuse.
  coefs = __hermite_coefs__(x, y, s);
  if nargin < 3
    out = struct('form', 'pp', 'breaks', x, 'coefs', coefs, 'pieces', n - 1, 'order', 4, 'dim', 1);
  else
    out = __pp_eval__(x, coefs, xi);
  end
end
