function z = dot(a, b, dim)
%DOT  Scalar product of fmad objects: sum(conj(a) .* b) (vectors of any
%   orientation, else along the first non-singleton or the given dimension).
  if nargin == 3
    z = sum(conj(a) .* b, dim);
  elseif is_vector(a) && is_vector(b)
    z = sum(conj(reshape(a, [], 1)) .* reshape(b, [], 1));
  else
    z = sum(conj(a) .* b);
  end
end

function r = is_vector(a)
  sz = size(a);
  r = numel(sz) == 2 && min(sz) == 1;
end
