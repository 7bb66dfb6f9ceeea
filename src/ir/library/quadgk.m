function [q, err] = quadgk(f, a, b, varargin)
% QUADGK  Integral of a vectorized function handle over a finite interval, written for msad: as
%   integral (adaptive Gauss-Kronrod (7, 15)); err is the sum of the accepted intervals' error
%   estimates. Options 'AbsTol' (1e-10) and 'RelTol' (1e-6).
  [q, err] = __gauss_kronrod__('quadgk', f, a, b, varargin{:});
end
