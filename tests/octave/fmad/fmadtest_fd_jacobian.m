function J = fmadtest_fd_jacobian(f, x)
% Central finite-difference Jacobian of f at x: numel(f(x)) x numel(x),
% step eps^(1/3) scaled by |x| (error O(h^2), about 1e-10 relative).
  fx = f(x);
  J = zeros(numel(fx), numel(x));
  for j = 1:numel(x)
    h = eps^(1/3) * max(1, abs(x(j)));
    xp = x;
    xm = x;
    xp(j) = xp(j) + h;
    xm(j) = xm(j) - h;
    J(:, j) = (reshape(f(xp), [], 1) - reshape(f(xm), [], 1)) / (2 * h);
  end
end
