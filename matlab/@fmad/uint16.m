function r = uint16(varargin)
%UINT16  Value of an fmad object converted to uint16 (rounded: no derivative).
  args = base_values(varargin);
  r = uint16(args{:});
end
