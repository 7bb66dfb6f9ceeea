function r = idivide(varargin)
%IDIVIDE  idivide() with fmad operands: an integer result, so no derivative.
  args = base_values(varargin);
  r = idivide(args{:});
end
