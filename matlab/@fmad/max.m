function [z, index] = max(varargin)
%MAX  Largest elements of fmad objects: max(x), max(x, [], dim) (with the
%   index as second output) and max(a, b). The derivative is that of the
%   selected element.
  [z, index] = extreme(@max, varargin);
end
