function varargout = eig(varargin) %#ok<STOUT>
%EIG  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('eig', 'a matrix function or decomposition (fmad has no rule for it)');
end
