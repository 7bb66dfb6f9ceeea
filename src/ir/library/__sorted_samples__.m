function [x, y, ends] = __sorted_samples__(name, x, y, extra)
% __SORTED_SAMPLES__  The sample points and values of an interpolant as rows sorted by x, for msad's
%   spline and pchip: y may have `extra` more values than x (end slopes, returned in ends).
  x = x(:).';
  y = y(:).';
  n = numel(x);
  if n < 2
    error('%s: requires at least 2 points', name);
  end
  ends = [];
  if extra > 0 && numel(y) == n + extra
    ends = y([1, end]);
    y = y(2:end - 1);
  elseif numel(y) ~= n
    error('msad:unsupported', '%s: msad interpolates a vector of values, one per point of X', name);
  end
  [x, order] = sort(x);
  y = y(order);
  if any(diff(x) == 0)
    error('%s: X must have distinct values', name);
  end
end
