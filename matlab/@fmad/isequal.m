function r = isequal(varargin)
%ISEQUAL  True when the values of the arguments (fmad objects or arrays) are equal.
  args = base_values(varargin);
  r = isequal(args{:});
end
