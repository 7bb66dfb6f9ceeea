function varargout = sqrtm(varargin) %#ok<STOUT>
%SQRTM  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('sqrtm', 'a matrix function or decomposition (fmad has no rule for it)');
end
