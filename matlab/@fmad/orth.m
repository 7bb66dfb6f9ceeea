function varargout = orth(varargin) %#ok<STOUT>
%ORTH  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('orth', 'a matrix function or decomposition (fmad has no rule for it)');
end
