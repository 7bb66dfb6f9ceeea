function z = Inf(varargin)
%INF  Inf(..., 'like', x) for an fmad x: an fmad array of Inf values with
%   the directions of x and zero derivatives.
  z = like_constant(@Inf, varargin);
end
