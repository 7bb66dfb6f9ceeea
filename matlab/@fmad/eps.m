function r = eps(varargin)
%EPS  eps(x) of the value of an fmad object (a double: no derivative).
  args = base_values(varargin);
  r = eps(args{:});
end
