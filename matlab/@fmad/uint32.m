function r = uint32(varargin)
%UINT32  Value of an fmad object converted to uint32 (rounded: no derivative).
  args = base_values(varargin);
  r = uint32(args{:});
end
