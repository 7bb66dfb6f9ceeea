function u0 = rd2d_init(m)
% RD2D_INIT  Initial state of rd2d_rhs: a Gaussian bump on the m x m grid (column).
  [X, Y] = ndgrid((1:m) / (m + 1));
  u0 = exp(-20 * ((X - 0.5).^2 + (Y - 0.4).^2));
  u0 = u0(:);
end
