function zi = interp2(varargin)
% INTERP2  Two-dimensional interpolation on a grid, written for msad: interp2(Z, XI, YI) and
%   interp2(X, Y, Z, XI, YI), with 'linear' (the default), 'nearest', or 'cubic' ('pchip': bicubic
%   Hermite with pchip's slopes along each axis, as Octave), then an optional value outside the grid
%   (default NaN; Octave: NA). Differentiated like user code: in Z, and in XI, YI, X and Y where the
%   interpolant is differentiable ('nearest' only in Z).
  [method, extrap, data] = __interp_options__(Inf, varargin{:});
  if ischar(extrap)
    error('msad:unsupported', 'interp2: msad has no ''extrap'': give the value outside the grid');
  end
  if numel(data) == 3
    data = {1:columns(data{1}), 1:rows(data{1}), data{:}};
  elseif numel(data) ~= 5
    error('msad:unsupported', 'interp2: msad interpolates as interp2(Z, XI, YI) or interp2(X, Y, Z, XI, YI), with a method and a value outside');
  end
  [x, y, z, xi, yi] = data{:};
  [x, z] = increasing('X', grid_vector(x, 1), z, 2);
  [y, z] = increasing('Y', grid_vector(y, 2), z, 1);
  if numel(x) ~= columns(z) || numel(y) ~= rows(z)
    error('interp2: X and Y size must match the dimensions of Z');
  end
  if numel(x) < 2 || numel(y) < 2
    error('interp2: %s requires at least 2 points in each dimension', method);
  end
  if (isrow(xi) && iscolumn(yi)) || (iscolumn(xi) && isrow(yi))
    [xi, yi] = meshgrid(xi, yi);
  elseif ~size_equal(xi, yi)
    error('interp2: XI and YI must be matrices of equal size');
  end
  % The cell of each point (clamped to the first and last), and its position in it.
  i = reshape(sum(xi(:) >= x(2:end - 1), 2) + 1, size(xi));
  j = reshape(sum(yi(:) >= y(2:end - 1), 2) + 1, size(yi));
  hx = reshape(x(i + 1) - x(i), size(xi));
  hy = reshape(y(j + 1) - y(j), size(yi));
  tx = (xi - reshape(x(i), size(xi))) ./ hx;
  ty = (yi - reshape(y(j), size(yi))) ./ hy;
  % The value of a grid array (z or its slopes) at a corner of each point's cell (di, dj: 0 or 1).
  r = rows(z);
  shape = size(xi);
  corner = @(a, di, dj) reshape(a(j + dj + r * (i + di - 1)), shape);
  switch method
    case 'linear'
      z00 = corner(z, 0, 0);
      z10 = corner(z, 1, 0);
      z01 = corner(z, 0, 1);
      zi = z00 + (z10 - z00) .* tx + (z01 - z00) .* ty + (corner(z, 1, 1) - z10 - z01 + z00) .* tx .* ty;
    case 'nearest'
      % The nearer sample, the upper one at a tie (Octave's).
      right = xi - reshape(x(i), shape) >= reshape(x(i + 1), shape) - xi;
      up = yi - reshape(y(j), shape) >= reshape(y(j + 1), shape) - yi;
      zi = reshape(z(j + up + r * (i + right - 1)), shape);
    case {'cubic', 'pchip'}
      dx = along_rows(x, z);
      dy = along_rows(y, z.').';
      dxy = (along_rows(x, dy) + along_rows(y, dx.').') / 2;
      [vx0, vx1, sx0, sx1] = hermite(tx, hx);
      [vy0, vy1, sy0, sy1] = hermite(ty, hy);
      % Along y at each x-corner: the values there (c0, c1), and the slopes in x there (d0, d1).
      c0 = blend(corner(z, 0, 0), corner(z, 0, 1), corner(dy, 0, 0), corner(dy, 0, 1), vy0, vy1, sy0, sy1);
      c1 = blend(corner(z, 1, 0), corner(z, 1, 1), corner(dy, 1, 0), corner(dy, 1, 1), vy0, vy1, sy0, sy1);
      d0 = blend(corner(dx, 0, 0), corner(dx, 0, 1), corner(dxy, 0, 0), corner(dxy, 0, 1), vy0, vy1, sy0, sy1);
      d1 = blend(corner(dx, 1, 0), corner(dx, 1, 1), corner(dxy, 1, 0), corner(dxy, 1, 1), vy0, vy1, sy0, sy1);
      zi = blend(c0, c1, d0, d1, vx0, vx1, sx0, sx1);
    otherwise
      error('interp2: unrecognized interpolation method ''%s''', method);
  end
  outside = xi < x(1) | xi > x(end) | yi < y(1) | yi > y(end);
  zi = merge(outside, extrap, zi);
end

function v = grid_vector(v, dim)
  % The grid's points along dimension dim: a vector, or a row (X) or column (Y) of meshgrid's matrices.
  if ~isvector(v)
    if dim == 1
      v = v(1, :);
    else
      v = v(:, 1);
    end
  end
  v = v(:).';
end

function [v, z] = increasing(name, v, z, dim)
  % Strictly increasing grid points: decreasing ones are flipped with Z.
  if all(diff(v) < 0)
    v = v(end:-1:1);
    z = flip(z, dim);
  elseif any(diff(v) <= 0)
    error('interp2: %s must be strictly monotonic', name);
  end
end

function d = along_rows(x, z)
  % pchip's slopes of each row of z over the points x.
  h = diff(x);
  d = __pchip_slopes__(h, diff(z, 1, 2) ./ h);
end

function [v0, v1, s0, s1] = hermite(t, h)
  % The cubic Hermite basis at t in [0, 1] of a cell of width h: for the values at its two ends (v0,
  % v1), and for the slopes there (s0, s1).
  t2 = t .^ 2;
  t3 = t2 .* t;
  v0 = 2 * t3 - 3 * t2 + 1;
  v1 = 3 * t2 - 2 * t3;
  s0 = h .* (t3 - 2 * t2 + t);
  s1 = h .* (t3 - t2);
end

function v = blend(a0, a1, b0, b1, w0, w1, u0, u1)
  % A cubic Hermite interpolant from its end values a0, a1 and end slopes b0, b1 and their bases.
  v = w0 .* a0 + w1 .* a1 + u0 .* b0 + u1 .* b1;
end
