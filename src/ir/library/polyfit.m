function p = polyfit(x, y, n)
% POLYFIT  Least-squares polynomial fit, written for msad (differentiated like user code, in x and
%   in y, through mldivide's least-squares solution): p = polyfit(x, y, n), the coefficients highest
%   power first. The outputs S and mu are msad:unsupported.
  if nargout > 1
    error('msad:unsupported', 'polyfit: msad computes p = polyfit(x, y, n) only (not S or mu)');
  end
  if ~isscalar(n) || n < 0 || n ~= fix(n)
    error('polyfit: N must be a non-negative integer');
  end
  if numel(x) ~= numel(y)
    error('polyfit: X and Y must be vectors of the same size');
  end
  vandermonde = x(:) .^ (n:-1:0);
  p = (vandermonde \ y(:)).';
end
