function r = num2str(varargin)
%NUM2STR  num2str() of the value of an fmad object (text: its derivatives are not shown).
  args = base_values(varargin);
  r = num2str(args{:});
end
