function [z, index] = max(varargin)
%MAX  Largest elements of fmad objects: max(x), max(x, [], dim) (with the
%   index as second output) and max(a, b). The derivative is that of the
%   selected element.
  if nargout < 2
    [z, done] = on_engine('max', varargin{:});
    if done
      return
    end
  end
  [z, index] = extreme(@max, varargin);
end
