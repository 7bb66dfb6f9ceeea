function z = cat(dim, varargin)
%CAT  cat(dim, a, b, ...) with fmad objects.
  z = concatenate(dim, varargin);
end
