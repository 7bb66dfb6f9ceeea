function f = chained_rosenbrock(x)
% CHAINED_ROSENBROCK  sum_i 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2, its element functions written as
% one vectorised sum over index vectors (a tridiagonal Hessian).
  i = 1:numel(x) - 1;
  f = sum(100 * (x(i + 1) - x(i).^2).^2 + (1 - x(i)).^2);
end
