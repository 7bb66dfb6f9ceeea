function r = char(varargin)
%CHAR  Characters with the codes in the value of an fmad object.
  args = base_values(varargin);
  r = char(args{:});
end
