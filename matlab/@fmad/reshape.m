function x = reshape(x, varargin)
%RESHAPE  Reshape an fmad object (column-major order, so derivatives are unchanged).
  x.value = reshape(x.value, varargin{:});
end
