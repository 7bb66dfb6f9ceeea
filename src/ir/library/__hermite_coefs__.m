function coefs = __hermite_coefs__(x, y, s)
% __HERMITE_COEFS__  Coefficients (one row per piece, highest power first) of the cubic Hermite
%   interpolant through the row vectors (x, y) with slopes s, written for msad.
  h = diff(x);
  del = diff(y) ./ h;
  s1 = s(1:end - 1);
  s2 = s(2:end);
  c3 = (s1 + s2 - 2 * del) ./ h .^ 2;
  c2 = (3 * del - 2 * s1 - s2) ./ h;
  y1 = y(1:end - 1);
  coefs = [c3(:), c2(:), s1(:), y1(:)];
end
