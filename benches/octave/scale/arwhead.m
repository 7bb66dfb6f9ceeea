function f = arwhead(x)
% ARWHEAD  CUTEst's ARWHEAD from its definition: sum_{i<n} (x_i^2 + x_n^2)^2 - 4 x_i + 3 (an
% arrowhead Hessian).
  y = x(1:end-1);
  f = sum((y.^2 + x(end)^2).^2 - 4 * y + 3);
end
