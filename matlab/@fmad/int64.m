function r = int64(varargin)
%INT64  Value of an fmad object converted to int64 (rounded: no derivative).
  args = base_values(varargin);
  r = int64(args{:});
end
