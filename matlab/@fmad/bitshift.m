function r = bitshift(varargin)
%BITSHIFT  bitshift() of the value of an fmad object (as an integer: no derivative).
  args = base_values(varargin);
  r = bitshift(args{:});
end
