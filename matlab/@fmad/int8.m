function r = int8(varargin)
%INT8  Value of an fmad object converted to int8 (rounded: no derivative).
  args = base_values(varargin);
  r = int8(args{:});
end
