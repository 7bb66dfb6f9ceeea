function out = spline(x, y, varargin)
% SPLINE  Cubic spline interpolation, written for msad (differentiated like user code, in x, y and
%   xi): pp = spline(x, y), yi = spline(x, y, xi). Not-a-knot end conditions, or the end slopes
%   y(1) and y(end) when y has two more values than x (complete spline); 2 points give the line,
%   3 the parabola. Vector y only.
  if nargin > 3
    error('Octave:invalid-fun-call', 'Invalid call to spline');
  end
  [x, y, ends] = __sorted_samples__('spline', x, y, 2);
  n = numel(x);
  h = diff(x);
  del = diff(y) ./ h;
  if isempty(ends) && n == 2
    s = [del, del];
  elseif isempty(ends) && n == 3
    curvature = (del(2) - del(1)) / (x(3) - x(1));
    s = [del(1) - curvature * h(1), del(1) + curvature * h(1), del(2) + curvature * h(2)];
  else
    % The slopes' tridiagonal system: continuity of the second derivative at the interior points.
    interior = 3 * (h(2:end) .* del(1:end - 1) + h(1:end - 1) .* del(2:end));
    diagonal = 2 * (h(1:end - 1) + h(2:end));
    if isempty(ends)
      % Not-a-knot: the third derivative is continuous at x(2) and x(n - 1).
      main = [h(2), diagonal, h(end - 1)];
      upper = [h(1) + h(2), h(1:end - 1)];
      lower = [h(2:end), h(end) + h(end - 1)];
      first = ((h(1) + 2 * (h(1) + h(2))) * h(2) * del(1) + h(1) ^ 2 * del(2)) / (h(1) + h(2));
      last = (h(end) ^ 2 * del(end - 1) + (2 * (h(end - 1) + h(end)) + h(end)) * h(end - 1) * del(end)) / (h(end - 1) + h(end));
    else
      main = [1, diagonal, 1];
      upper = [0, h(1:end - 1)];
      lower = [h(2:end), 0];
      first = ends(1);
      last = ends(2);
    end
    system = diag(main) + diag(upper, 1) + diag(lower, -1);
    s = (system \ [first; interior(:); last]).';
  end
  out = __hermite_pp__(x, y, s, varargin{:});
end
