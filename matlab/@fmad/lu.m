function varargout = lu(varargin) %#ok<STOUT>
%LU  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('lu', 'a matrix function or decomposition (fmad has no rule for it)');
end
