function r = bitxor(varargin)
%BITXOR  bitxor() of the values of fmad objects (as integers: no derivative).
  args = base_values(varargin);
  r = bitxor(args{:});
end
