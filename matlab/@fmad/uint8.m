function r = uint8(varargin)
%UINT8  Value of an fmad object converted to uint8 (rounded: no derivative).
  args = base_values(varargin);
  r = uint8(args{:});
end
