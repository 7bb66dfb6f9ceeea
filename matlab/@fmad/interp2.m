function varargout = interp2(varargin) %#ok<STOUT>
%INTERP2  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('interp2', 'a 2-D interpolation (fmad has no rule for it)');
end
