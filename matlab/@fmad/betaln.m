function y = betaln(a, b) %#ok<STOUT,INUSD>
%BETALN  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('betaln', 'a function of two differentiated arguments');
end
