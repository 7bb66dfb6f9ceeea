function out = pchip(x, y, xi)
% PCHIP  Piecewise cubic Hermite interpolation preserving shape (Fritsch-Carlson slopes, as SLATEC's
%   PCHIM), written for msad (differentiated like user code, in x, y and xi): pp = pchip(x, y),
%   yi = pchip(x, y, xi). Vector y only.
  [x, y] = __sorted_samples__('pchip', x, y, 0);
  n = numel(x);
  h = diff(x);
  del = diff(y) ./ h;
  if n == 2
    s = [del, del];
  else
    % Interior: a weighted harmonic mean of the neighbouring slopes where they have the same sign.
    d1 = del(1:end - 1);
    d2 = del(2:end);
    h1 = h(1:end - 1);
    h2 = h(2:end);
    same = d1 .* d2 > 0;
    w1 = (2 * h1 + h2) ./ (3 * (h1 + h2));
    w2 = (h1 + 2 * h2) ./ (3 * (h1 + h2));
    dmax = merge(same, max(abs(d1), abs(d2)), 1);
    dmin = min(abs(d1), abs(d2));
    weighted = merge(same, w1 .* d1 ./ dmax + w2 .* d2 ./ dmax, 1);
    inner = merge(same, dmin ./ weighted, 0);
    s = [__pchip_end__(h(1), h(2), del(1), del(2)), inner, __pchip_end__(h(end), h(end - 1), del(end), del(end - 1))];
  end
  % The values at xi without a struct, whose x-dependent fields reverse mode would refuse.
  coefs = __hermite_coefs__(x, y, s);
  if nargin < 3
    out = struct('form', 'pp', 'breaks', x, 'coefs', coefs, 'pieces', n - 1, 'order', 4, 'dim', 1);
  else
    out = __pp_eval__(x, coefs, xi);
  end
end

function s = __pchip_end__(h1, h2, d1, d2)
  % The three-point end slope, zero where its sign differs from the end interval's, limited to 3 d1
  % where the slopes change sign.
  s = ((2 * h1 + h2) * d1 - h1 * d2) / (h1 + h2);
  if sign(s) * sign(d1) <= 0
    s = 0;
  elseif sign(d1) * sign(d2) < 0 && abs(s) > abs(3 * d1)
    s = 3 * d1;
  end
end
