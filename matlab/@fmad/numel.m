function n = numel(x, varargin)
%NUMEL  Number of elements of the value of an fmad object.
%   With index arguments it returns 1: indexing an fmad object yields a single
%   object, and MATLAB uses this count as the number of outputs of subsref.
  if nargin > 1
    n = 1;
  else
    n = numel(x.value);
  end
end
