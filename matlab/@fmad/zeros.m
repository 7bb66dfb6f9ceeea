function z = zeros(varargin)
%ZEROS  zeros(..., 'like', x) for an fmad x: an fmad array of zeros with the
%   directions of x and zero derivatives, ready for indexed assignment:
%     y = zeros(n, 1, 'like', x);  for i = 1:n, y(i) = x(i)^2; end
  z = like_constant(@zeros, varargin);
end
