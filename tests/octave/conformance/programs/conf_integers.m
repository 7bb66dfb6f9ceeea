function r = conf_integers(x)
% conformance: program scalar row col mat
% Integer loop counters, integer arrays filled by indexed assignment, integer subscripts.
  n = int32(numel(x));
  total = zeros(1, 1, 'int32');
  for k = int32(1):n
    total = total + k * 2;
  end
  counts = zeros(1, 3, 'uint8');
  for v = x(:)'
    b = 1 + (v > 0) + (v > 2);
    counts(b) = counts(b) + 1;
  end
  y = x;
  y(idivide(n, int32(2)) + 1) = 0;
  z = x;
  z(2) = int8(7);
  r = [double(total), double(counts), y(:)', double(z(:)'), isa(z, 'int8')];
end
