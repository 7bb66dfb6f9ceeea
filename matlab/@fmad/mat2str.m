function r = mat2str(varargin)
%MAT2STR  mat2str() of the value of an fmad object (text: its derivatives are not shown).
  args = base_values(varargin);
  r = mat2str(args{:});
end
