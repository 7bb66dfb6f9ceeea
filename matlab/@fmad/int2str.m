function r = int2str(varargin)
%INT2STR  int2str() of the value of an fmad object (text: its derivatives are not shown).
  args = base_values(varargin);
  r = int2str(args{:});
end
