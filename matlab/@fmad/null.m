function varargout = null(varargin) %#ok<STOUT>
%NULL  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('null', 'a matrix function or decomposition (fmad has no rule for it)');
end
