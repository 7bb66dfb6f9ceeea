function z = horzcat(varargin)
%HORZCAT  [a, b, ...] with fmad objects.
  z = concatenate(2, varargin);
end
