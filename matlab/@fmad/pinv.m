function varargout = pinv(varargin) %#ok<STOUT>
%PINV  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('pinv', 'a matrix function or decomposition (fmad has no rule for it)');
end
