function z = ones(varargin)
%ONES  ones(..., 'like', x) for an fmad x: an fmad array of ones with the
%   directions of x and zero derivatives.
  z = like_constant(@ones, varargin);
end
