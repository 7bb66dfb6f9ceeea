function varargout = svd(varargin) %#ok<STOUT>
%SVD  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('svd', 'a matrix function or decomposition (fmad has no rule for it)');
end
