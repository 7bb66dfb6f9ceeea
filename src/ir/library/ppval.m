function yi = ppval(pp, xi)
% PPVAL  Values of a piecewise polynomial (from spline, pchip or mkpp, scalar-valued), written for
%   msad: the piece is chosen by comparisons and the value is Horner's scheme.
  if ~isstruct(pp) || ~isfield(pp, 'breaks') || ~isfield(pp, 'coefs')
    error('ppval: argument must be a pp-form structure');
  end
  if isfield(pp, 'dim') && ~isequal(pp.dim, 1)
    error('msad:unsupported', 'ppval: msad evaluates scalar-valued piecewise polynomials (pp.dim = 1)');
  end
  yi = __pp_eval__(pp.breaks, pp.coefs, xi);
end
