function varargout = find(x, varargin)
%FIND  Nonzero elements of the value of an fmad object, with the builtin's
%   arguments (n, 'first' / 'last'): [i, j, v] = find(x) gives the values v
%   with their derivatives; the indices are constants.
  value = base_value(x);
  if nargout <= 1
    varargout{1} = find(value, varargin{:});
    return
  end
  [i, j] = find(value, varargin{:});
  varargout = {i, j};
  if nargout == 3
    v = take(x, i + size(value, 1) * (j - 1));
    varargout{3} = reshape(v, size(i));
  end
end
