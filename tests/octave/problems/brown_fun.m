function f = brown_fun(x)
% BROWN_FUN  Brown function (scalar objective, smooth away from x_i = 0).
%   f = sum_{i=1}^{n-1} (x_i^2)^(x_{i+1}^2 + 1) + (x_{i+1}^2)^(x_i^2 + 1).
%   Standard start: x = [-1 1 -1 1 ...]; minimum 0 at x = 0.
  n = numel(x);
  f = 0;
  for i = 1:n-1
    a = x(i)^2;
    b = x(i+1)^2;
    f = f + a^(b + 1) + b^(a + 1);
  end
end
