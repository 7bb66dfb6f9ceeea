function [z, index] = min(varargin)
%MIN  Smallest elements of fmad objects: min(x), min(x, [], dim) (with the
%   index as second output) and min(a, b). The derivative is that of the
%   selected element.
  [z, index] = extreme(@min, varargin);
end
