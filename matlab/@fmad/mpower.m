function z = mpower(a, p)
%MPOWER  a ^ p with fmad objects: scalar powers, or a square matrix to an
%   integer power (by repeated squaring).
  if numel(a) == 1 && numel(p) == 1
    z = binary_elementwise(a, p, 'power');
    return
  end
  if isa(p, 'fmad') || numel(p) ~= 1 || p ~= fix(p)
    unsupported('mpower (a ^ p)', 'a matrix power needs a constant integer p');
  end
  if p < 0
    a = inv(a);
    p = -p;
  end
  z = zeros(size(a), 'like', a) + eye(size(a));
  while p > 0
    if mod(p, 2) == 1
      z = z * a;
    end
    p = floor(p / 2);
    if p > 0
      a = a * a;
    end
  end
end
