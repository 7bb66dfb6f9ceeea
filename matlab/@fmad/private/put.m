function a = put(a, r, varargin)
% a(varargin{:}) = r, with the overloaded subsasgn whenever an fmad is
% involved (see take).
  if isa(a, 'fmad') || isa(r, 'fmad')
    a = subsasgn(a, struct('type', '()', 'subs', {varargin}), r);
  else
    a(varargin{:}) = r;
  end
end
