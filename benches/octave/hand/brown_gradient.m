function g = brown_gradient(x)
% BROWN_GRADIENT  Hand-coded gradient (column) of brown_fun, vectorised.
%   With a_i = x_i^2, b_i = x_{i+1}^2, each term a^(b+1) + b^(a+1) contributes
%   2 x_i ((b+1) a^b + b^(a+1) log b) to g_i and 2 x_{i+1} (a^(b+1) log a + (a+1) b^a)
%   to g_{i+1}. Needs x_i ~= 0 (log), like the function's own derivative.
  x = x(:);
  a = x(1:end-1).^2;
  b = x(2:end).^2;
  g = zeros(size(x));
  g(1:end-1) = 2 * x(1:end-1) .* ((b + 1) .* a.^b + b.^(a + 1) .* log(b));
  g(2:end) = g(2:end) + 2 * x(2:end) .* (a.^(b + 1) .* log(a) + (a + 1) .* b.^a);
end
