function r = uint64(varargin)
%UINT64  Value of an fmad object converted to uint64 (rounded: no derivative).
  args = base_values(varargin);
  r = uint64(args{:});
end
