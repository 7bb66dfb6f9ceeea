function z = NaN(varargin)
%NAN  NaN(..., 'like', x) for an fmad x: an fmad array of NaN values with
%   the directions of x and zero derivatives.
  z = like_constant(@NaN, varargin);
end
