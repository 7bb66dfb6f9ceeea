function r = sprintf(varargin)
%SPRINTF  sprintf() with fmad arguments: formats their values.
  args = base_values(varargin);
  r = sprintf(args{:});
end
