function y = sumsq(x, varargin)
%SUMSQ  Sum of squares (of absolute values) of an fmad object along a dimension.
  y = sum(x .* conj(x), varargin{:});
end
