function q = integral(f, a, b, varargin)
% INTEGRAL  Integral of a vectorized function handle over a finite interval, written for msad:
%   adaptive Gauss-Kronrod (7, 15) quadrature (__gauss_kronrod__), differentiated like user code, so
%   the derivative is the integral of the integrand's derivative on the same nodes (the subdivision
%   is chosen by comparisons of error estimates, constant for the derivative). Options 'AbsTol'
%   (1e-10) and 'RelTol' (1e-6); infinite limits and 'ArrayValued' are msad:unsupported.
  q = __gauss_kronrod__('integral', f, a, b, varargin{:});
end
