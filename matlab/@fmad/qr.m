function varargout = qr(varargin) %#ok<STOUT>
%QR  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('qr', 'a matrix function or decomposition (fmad has no rule for it)');
end
