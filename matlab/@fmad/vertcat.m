function z = vertcat(varargin)
%VERTCAT  [a; b; ...] with fmad objects.
  z = concatenate(1, varargin);
end
