function J = brusselator_jacobian(y)
% BRUSSELATOR_JACOBIAN  Hand-coded sparse Jacobian of brusselator_rhs (and _vec).
%   y = [u1 v1 ... uN vN], diffusion d = (N+1)^2 / 50. Row 2i-1 (u_i') has
%   du_i: 2 u_i v_i - 4 - 2d, dv_i: u_i^2, du_{i-1} and du_{i+1}: d; row 2i (v_i')
%   has du_i: 3 - 2 u_i v_i, dv_i: -u_i^2 - 2d, dv_{i-1} and dv_{i+1}: d. nnz 8N - 4.
  N = numel(y) / 2;
  d = (N + 1)^2 / 50;
  u = y(1:2:end);
  v = y(2:2:end);
  u = u(:);
  v = v(:);
  uRow = (1:2:2*N).';
  vRow = uRow + 1;
  coupling = d * ones(N - 1, 1);
  rows = [uRow; uRow; uRow(2:end); uRow(1:end-1); vRow; vRow; vRow(2:end); vRow(1:end-1)];
  cols = [uRow; vRow; uRow(2:end) - 2; uRow(1:end-1) + 2; uRow; vRow; vRow(2:end) - 2; vRow(1:end-1) + 2];
  vals = [2*u.*v - 4 - 2*d; u.^2; coupling; coupling; 3 - 2*u.*v; -u.^2 - 2*d; coupling; coupling];
  J = sparse(rows, cols, vals, 2*N, 2*N);
end
