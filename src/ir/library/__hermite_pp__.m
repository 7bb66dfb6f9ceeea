function out = __hermite_pp__(x, y, s, varargin)
% __HERMITE_PP__  For msad's pchip and spline: the cubic Hermite interpolant through the row vectors
%   (x, y) with slopes s, as Octave's pp struct (coefficients one row per piece, highest power first),
%   or with xi its values there (without a struct, whose x-dependent fields reverse mode refuses).
  h = diff(x);
  del = diff(y) ./ h;
  s1 = s(1:end - 1);
  s2 = s(2:end);
  c3 = (s1 + s2 - 2 * del) ./ h .^ 2;
  c2 = (3 * del - 2 * s1 - s2) ./ h;
  y1 = y(1:end - 1);
  coefs = [c3(:), c2(:), s1(:), y1(:)];
  if isempty(varargin)
    out = struct('form', 'pp', 'breaks', x, 'coefs', coefs, 'pieces', numel(x) - 1, 'order', 4, 'dim', 1);
  else
    out = __pp_eval__(x, coefs, varargin{1});
  end
end
