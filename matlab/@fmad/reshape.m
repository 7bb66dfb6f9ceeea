function x = reshape(x, varargin)
%RESHAPE  Reshape an fmad object (column-major order, so derivatives are unchanged).
  [z, done] = on_engine('reshape', x, varargin{:});
  if done
    x = z;
    return
  end
  x.value = reshape(x.value, varargin{:});
end
