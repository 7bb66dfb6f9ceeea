function varargout = expm(varargin) %#ok<STOUT>
%EXPM  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('expm', 'a matrix function or decomposition (fmad has no rule for it)');
end
