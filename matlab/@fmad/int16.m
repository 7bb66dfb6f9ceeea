function r = int16(varargin)
%INT16  Value of an fmad object converted to int16 (rounded: no derivative).
  args = base_values(varargin);
  r = int16(args{:});
end
