function r = take(a, varargin)
% r = a(varargin{:}). Inside fmad methods plain indexing of an fmad object
% bypasses the overloaded subsref, so nested values/derivatives need the
% explicit call.
  if isa(a, 'fmad')
    r = subsref(a, struct('type', '()', 'subs', {varargin}));
  else
    r = a(varargin{:});
  end
end
