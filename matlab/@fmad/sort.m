function [y, index] = sort(x, varargin)
%SORT  Sort an fmad object by value (same arguments as the builtin: dim and
%   'ascend'/'descend'); the derivatives follow their elements.
  dim = default_dim(size(x.value));
  for k = 1:numel(varargin)
    if isnumeric(varargin{k})
      dim = varargin{k};
    end
  end
  [~, index] = sort(base_value(x), varargin{:});
  y = reshape(take(x, slice_rows(size(x.value), dim, index)), size(index));
end
