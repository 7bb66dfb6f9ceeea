function varargout = size(x, varargin)
%SIZE  Size of the value of an fmad object (all the forms of the builtin).
  [varargout{1:max(nargout, 1)}] = size(x.value, varargin{:});
end
