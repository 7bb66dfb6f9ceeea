function y = betainc(x, a, b, varargin)
%BETAINC  Regularised incomplete beta function of an fmad X (the shapes A, B constant scalars):
%  d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / beta(a, b), negated for the 'upper' tail.
  if isa(a, 'fmad') || isa(b, 'fmad') || ~isscalar(a) || ~isscalar(b)
    unsupported('betainc with fmad or non-scalar shapes A, B', 'msad_eval takes those');
  end
  density = exp((a - 1) * log(x.value) + (b - 1) * log(1 - x.value) - betaln(a, b));
  if numel(varargin) > 0 && strcmpi(varargin{1}, 'upper')
    density = -density;
  end
  y = unary_chain(x, betainc(x.value, a, b, varargin{:}), density);
end
