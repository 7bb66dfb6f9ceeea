function varargout = ifft(varargin) %#ok<STOUT>
%IFFT  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('ifft', 'a complex transform (fmad carries no complex derivatives)');
end
