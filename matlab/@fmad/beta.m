function y = beta(a, b) %#ok<STOUT,INUSD>
%BETA  Not supported on fmad objects: msad_eval differentiates it.
  unsupported('beta', 'a function of two differentiated arguments');
end
