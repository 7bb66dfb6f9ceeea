function r = bitor(varargin)
%BITOR  bitor() of the values of fmad objects (as integers: no derivative).
  args = base_values(varargin);
  r = bitor(args{:});
end
