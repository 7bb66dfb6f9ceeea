function x = repmat(x, varargin)
%REPMAT  Replicate an fmad object (same arguments as the builtin).
  map = repmat(reshape(1:numel(x.value), size(x.value)), varargin{:});
  x.value = repmat(x.value, varargin{:});
  x.derivs = take(x.derivs, map(:), ':');
end
