
% ---------------------------------------------------------------------------------------------
% Derivative helpers written by msad_export. A derivative is a numel(value) x p matrix: row k is
% the derivative of element k along the p compressed directions; [] stands for "not differentiated".

function map = msad_map(a, offset)
  % The index map of a: element k holds offset + k.
  map = reshape(offset + (1:numel(a)), size(a));
end

function d = msad_rows(d, map)
  % The rows of d that an index map names, in its order; a 0 (an element that is new) gets zeros.
  map = map(:);
  kept = map > 0;
  if all(kept)
    d = d(map, :);
  else
    out = zeros(numel(map), size(d, 2));
    out(kept, :) = d(map(kept), :);
    d = out;
  end
end

function d = msad_spread(d, a, y)
  % a's derivative repeated as implicit expansion repeats a's elements in y.
  if numel(a) ~= numel(y)
    d = msad_rows(d, bsxfun(@plus, msad_map(a, 0), zeros(size(y))));
  end
end

function d = msad_scale(c, d, a, y)
  % a's derivative spread to y, each row times the element of c (expanded to y's size) it belongs to.
  d = bsxfun(@times, msad_spread(d, a, y), reshape(bsxfun(@plus, c, zeros(size(y))), [], 1));
end

function d = msad_assigned(old, map, new)
  % After y(subs) = v: map > 0 names an element of the old y, map < 0 one of v, 0 a new element.
  d = zeros(numel(map), max(size(old, 2), size(new, 2)));
  from_old = map(:) > 0;
  from_new = map(:) < 0;
  if ~isempty(old), d(from_old, :) = old(map(from_old), :); end
  if ~isempty(new), d(from_new, :) = new(-map(from_new), :); end
end

function s = msad_power_base_slope(a, b)
  % d(a.^b)/da, 0 where b is 0.
  s = b .* a .^ (b - 1);
  s(bsxfun(@plus, b, zeros(size(s))) == 0) = 0;
end

function s = msad_power_exponent_slope(a, y)
  % d(a.^b)/db, 0 where a is 0.
  s = y .* log(a);
  s(bsxfun(@plus, a, zeros(size(s))) == 0) = 0;
end

function d = msad_real(y, a, d)
  d = real(d);
end

function d = msad_conj(y, a, d)
  d = conj(d);
end

function d = msad_ctranspose(y, a, d)
  d = conj(msad_rows(d, msad_map(a, 0).'));
end

function d = msad_imag(y, a, d)
  d = imag(d);
end

function d = msad_abs(y, a, d)
  % d|a| = real(conj(a) da) / |a| (sign(a) da for real ones; 0 where a is 0). Octave makes a value
  % real when its imaginary parts vanish, but its derivative may still be complex.
  if isreal(d)
    d = bsxfun(@times, sign(a(:)), d);
  else
    d = real(bsxfun(@times, msad_unit_conj(a), d));
  end
end

function d = msad_angle(y, a, d)
  % d angle(a) = imag(conj(a) da) / |a|^2 (0 where a is 0).
  d = imag(bsxfun(@times, msad_unit_conj(a) ./ abs(a(:)), d));
  d(a(:) == 0, :) = 0;
end

function s = msad_unit_conj(a)
  s = conj(a(:)) ./ abs(a(:));
  s(a(:) == 0) = 0;
end

function d = msad_mtimes(y, a, da, b, db)
  if isscalar(a) || isscalar(b)
    d = msad_sum_terms(msad_scale_or_empty(b, da, a, y), msad_scale_or_empty(a, db, b, y));
    return
  end
  p = max(size(da, 2), size(db, 2));
  d = zeros(numel(y), p);
  if ~isempty(db)  % a * dB for every direction at once: [dB_1 ... dB_p] side by side
    d = d + reshape(a * reshape(db, size(b, 1), []), [], p);
  end
  if ~isempty(da)  % dA * b: the directions stacked below each other
    [m, k] = size(a);
    stacked = reshape(permute(reshape(da, m, k, p), [1 3 2]), m * p, k) * b;
    d = d + reshape(permute(reshape(stacked, m, p, []), [1 3 2]), [], p);
  end
end

function d = msad_mrdivide(y, a, da, b, db)
  if isscalar(b)
    d = msad_sum_terms(msad_scale_or_empty(1 ./ b, da, a, y), msad_scale_or_empty(-y ./ b, db, b, y));
  else
    d = msad_directions(y, da, db, @(k) (msad_direction(da, k, size(a)) - y * msad_direction(db, k, size(b))) / b);
  end
end

function d = msad_mldivide(y, a, da, b, db)
  if isscalar(a)
    d = msad_sum_terms(msad_scale_or_empty(-y ./ a, da, a, y), msad_scale_or_empty(1 ./ a, db, b, y));
  else
    d = msad_directions(y, da, db, @(k) a \ (msad_direction(db, k, size(b)) - msad_direction(da, k, size(a)) * y));
  end
end

function d = msad_directions(y, da, db, step)
  % The derivative of y whose column k is step(k), y's derivative along direction k.
  p = max(size(da, 2), size(db, 2));
  d = zeros(numel(y), p);
  for k = 1:p
    d(:, k) = reshape(step(k), [], 1);
  end
end

function v = msad_direction(d, k, sz)
  % Direction k of a derivative as an array of the value's size (zeros when not differentiated).
  if isempty(d), v = zeros(sz); else, v = reshape(d(:, k), sz); end
end

function d = msad_mpower(y, a, da, b, db)
  if ~(isscalar(a) && isscalar(b))
    error('msad:export', 'the exported code differentiates ^ of scalars only: write a matrix power as products');
  end
  d = msad_sum_terms(msad_scale_or_empty(msad_power_base_slope(a, b), da, a, y), ...
                     msad_scale_or_empty(msad_power_exponent_slope(a, y), db, b, y));
end

function d = msad_scale_or_empty(c, d, a, y)
  if ~isempty(d), d = msad_scale(c, d, a, y); end
end

function d = msad_sum_terms(d1, d2)
  if isempty(d1), d = d2; elseif isempty(d2), d = d1; else, d = d1 + d2; end
end

function dim = msad_default_dim(a)
  % The dimension sum, mean, max and cumsum work along when none is given.
  dim = find(size(a) ~= 1, 1);
  if isempty(dim), dim = 1; end
end

function [d, dim] = msad_along(reduce, a, d, dim)
  % reduce (sum or cumsum) applied to every direction of a's derivative along dim.
  if nargin < 4, dim = msad_default_dim(a); end
  p = size(d, 2);
  sz = size(a);
  sz(end + 1:max(dim, numel(sz))) = 1;
  d = reshape(reduce(reshape(d, [sz, p]), dim), [], p);
end

function d = msad_sum(y, a, d, varargin)
  d = msad_along(@sum, a, d, varargin{:});
end

function d = msad_mean(y, a, d, varargin)
  [d, dim] = msad_along(@sum, a, d, varargin{:});
  d = d / size(a, dim);
end

function d = msad_cumsum(y, a, d, varargin)
  d = msad_along(@cumsum, a, d, varargin{:});
end

function d = msad_norm(y, a, d, varargin)
  if ~isempty(varargin) || ~isvector(a)
    error('msad:export', 'the exported code differentiates the 2-norm of a vector only');
  end
  if y == 0
    d = zeros(1, size(d, 2));
  else
    d = (a(:).' / y) * d;
  end
end

function d = msad_dot(y, a, da, b, db)
  d = [];
  if ~isempty(da), d = b(:).' * da; end
  if ~isempty(db), d = msad_sum_terms(d, a(:).' * db); end
end

function map = msad_extremum_map(a, picked, dim)
  % Linear indices in a of the elements max or min picked along dim.
  if nargin < 3, dim = msad_default_dim(a); end
  if ndims(a) > 2
    error('msad:export', 'the exported code differentiates max and min of vectors and matrices only');
  end
  if dim == 1
    map = picked + (0:size(a, 2) - 1) * size(a, 1);
  else
    map = (1:size(a, 1)).' + (picked - 1) * size(a, 1);
  end
end
