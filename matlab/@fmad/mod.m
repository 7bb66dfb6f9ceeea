function z = mod(a, b)
%MOD  mod(a, b) = a - floor(a ./ b) .* b for fmad objects (mod(a, 0) = a):
%   the derivative is da - floor(a ./ b) .* db, piecewise.
  z = binary_elementwise(a, b, 'mod');
end
