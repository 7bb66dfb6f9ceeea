function r = int32(varargin)
%INT32  Value of an fmad object converted to int32 (rounded: no derivative).
  args = base_values(varargin);
  r = int32(args{:});
end
