function varargout = fft(varargin) %#ok<STOUT>
%FFT  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('fft', 'a complex transform (fmad carries no complex derivatives)');
end
