function varargout = lookup(varargin)
%LOOKUP  lookup(table, y) with fmad arguments: the indices depend on the
%   values only (piecewise constant), so they are doubles.
  args = base_values(varargin);
  [varargout{1:max(nargout, 1)}] = lookup(args{:});
end
