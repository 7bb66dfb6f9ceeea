function z = inf(varargin)
%INF  inf(..., 'like', x) for an fmad x: an fmad array of inf values with
%   the directions of x and zero derivatives.
  z = like_constant(@inf, varargin);
end
