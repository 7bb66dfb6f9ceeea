function r = size_equal(varargin)
%SIZE_EQUAL  True when the values of the arguments (fmad objects or arrays) have equal sizes.
  args = base_values(varargin);
  r = size_equal(args{:});
end
