function z = vertcat(varargin)
%VERTCAT  [a; b; ...] with fmad objects.
  [z, done] = on_engine('vertcat', varargin{:});
  if done
    return
  end
  z = concatenate(1, varargin);
end
