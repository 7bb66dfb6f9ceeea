function varargout = chol(varargin) %#ok<STOUT>
%CHOL  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('chol', 'a matrix function or decomposition (fmad has no rule for it)');
end
