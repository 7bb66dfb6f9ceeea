function z = horzcat(varargin)
%HORZCAT  [a, b, ...] with fmad objects.
  [z, done] = on_engine('horzcat', varargin{:});
  if done
    return
  end
  z = concatenate(2, varargin);
end
