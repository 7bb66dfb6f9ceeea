function z = cat(dim, varargin)
%CAT  cat(dim, a, b, ...) with fmad objects.
  [z, done] = on_engine('cat', dim, varargin{:});
  if done
    return
  end
  z = concatenate(dim, varargin);
end
