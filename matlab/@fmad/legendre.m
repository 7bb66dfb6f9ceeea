function y = legendre(n, x, varargin) %#ok<STOUT,INUSD>
%LEGENDRE  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('legendre', 'a matrix of associated functions');
end
