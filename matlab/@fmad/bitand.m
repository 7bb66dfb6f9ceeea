function r = bitand(varargin)
%BITAND  bitand() of the values of fmad objects (as integers: no derivative).
  args = base_values(varargin);
  r = bitand(args{:});
end
