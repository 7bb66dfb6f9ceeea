function z = nan(varargin)
%NAN  nan(..., 'like', x) for an fmad x: an fmad array of nan values with
%   the directions of x and zero derivatives.
  z = like_constant(@nan, varargin);
end
