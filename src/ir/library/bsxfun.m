function c = bsxfun(f, a, b)
% BSXFUN  Elementwise f(a, b) with singleton expansion, written for msad: both operands are
%   replicated to the common size, then f is called once on the two full-size arrays.
  sa = size(a);
  sb = size(b);
  n = max(numel(sa), numel(sb));
  sa(end + 1:n) = 1;
  sb(end + 1:n) = 1;
  if any(sa ~= sb & sa ~= 1 & sb ~= 1)
    error('bsxfun: nonconformant dimensions: %s and %s', dims_text(sa), dims_text(sb));
  end
  sz = max(sa, sb);
  sz(sa == 0 | sb == 0) = 0;
  ra = ones(1, n);
  ra(sa == 1) = sz(sa == 1);
  rb = ones(1, n);
  rb(sb == 1) = sz(sb == 1);
  c = f(repmat(a, ra), repmat(b, rb));
end

function t = dims_text(sz)
  t = sprintf('%dx', sz);
  t = t(1:end - 1);
end
