function J = fmadtest_brusselator_jacobian(y)
% Hand-written sparse Jacobian of brusselator_rhs_vec (tests/octave/problems).
  n = numel(y) / 2;
  c = (n + 1)^2 / 50;
  u = y(1:2:end);
  v = y(2:2:end);
  iu = (1:2:2*n)';
  iv = (2:2:2*n)';
  rows = [iu; iu; iv; iv; iu(2:end); iu(1:end-1); iv(2:end); iv(1:end-1)];
  cols = [iu; iv; iu; iv; iu(1:end-1); iu(2:end); iv(1:end-1); iv(2:end)];
  vals = [2*u.*v - 4 - 2*c; u.^2; 3 - 2*u.*v; -u.^2 - 2*c; ...
          c*ones(4*(n-1), 1)];
  J = sparse(rows, cols, vals, 2*n, 2*n);
end
