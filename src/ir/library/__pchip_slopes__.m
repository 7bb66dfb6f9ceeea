function s = __pchip_slopes__(h, del)
% __PCHIP_SLOPES__  pchip's slopes (Fritsch-Carlson, as SLATEC's PCHIM) at the samples of each row:
%   h the row of interval widths, del the divided differences (one row per curve, one column per
%   interval). Interior: a weighted harmonic mean of the neighbouring slopes where they have the same
%   sign, else 0; ends: the three-point formula, zero where its sign differs from the end interval's,
%   limited to 3 del where the slopes change sign.
  if numel(h) == 1
    s = [del, del];
    return;
  end
  d1 = del(:, 1:end - 1);
  d2 = del(:, 2:end);
  h1 = h(1:end - 1);
  h2 = h(2:end);
  same = d1 .* d2 > 0;
  w1 = (2 * h1 + h2) ./ (3 * (h1 + h2));
  w2 = (h1 + 2 * h2) ./ (3 * (h1 + h2));
  dmax = merge(same, max(abs(d1), abs(d2)), 1);
  dmin = min(abs(d1), abs(d2));
  weighted = merge(same, w1 .* d1 ./ dmax + w2 .* d2 ./ dmax, 1);
  inner = merge(same, dmin ./ weighted, 0);
  s = [end_slope(h(1), h(2), del(:, 1), del(:, 2)), inner, end_slope(h(end), h(end - 1), del(:, end), del(:, end - 1))];
end

function s = end_slope(h1, h2, d1, d2)
  s = ((2 * h1 + h2) * d1 - h1 * d2) / (h1 + h2);
  limited = sign(d1) .* sign(d2) < 0 & abs(s) > abs(3 * d1);
  s = merge(sign(s) .* sign(d1) <= 0, 0, merge(limited, 3 * d1, s));
end
