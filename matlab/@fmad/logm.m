function varargout = logm(varargin) %#ok<STOUT>
%LOGM  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('logm', 'a matrix function or decomposition (fmad has no rule for it)');
end
