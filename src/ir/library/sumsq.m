function y = sumsq(x, dim)
% SUMSQ  Sum of squares, written for msad: sum(x .* conj(x)) along dim, by default the first
%   non-singleton dimension (its derivative is 2 x through times and sum).
  if nargin < 2
    y = sum(x .* conj(x));
  else
    y = sum(x .* conj(x), dim);
  end
end
