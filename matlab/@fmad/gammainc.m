function y = gammainc(x, a, varargin)
%GAMMAINC  Regularised incomplete gamma function of an fmad X (the shape A a constant scalar):
%  d/dx P(x, a) = x^(a-1) exp(-x) / gamma(a), negated for the 'upper' tail.
  if isa(a, 'fmad') || ~isscalar(a) || a <= 0
    unsupported('gammainc with an fmad, non-scalar or zero shape A', 'msad_eval takes those');
  end
  density = exp((a - 1) * log(x.value) - x.value - gammaln(a));
  if numel(varargin) > 0 && strcmpi(varargin{1}, 'upper')
    density = -density;
  end
  y = unary_chain(x, gammainc(x.value, a, varargin{:}), density);
end
