function test_problems_values()
% Hand-checked values of the small reference problems.

  % Enzyme: published least-squares minimum 3.07505e-4 (checks the data table).
  xBest = [0.1928069; 0.1912823; 0.1230565; 0.1360623];
  f = enzyme_residual(xBest);
  assert(isequal(size(f), [11 1]));
  assert(abs(sum(f.^2) - 3.07505e-4) < 1e-9, 'enzyme minimum %.8g', sum(f.^2));
  assert(abs(sum(enzyme_residual(enzyme_init()).^2) - 5.31317e-3) < 1e-8);

  % Broyden tridiagonal at x = -1: interior -1, ends -2 and -3.
  check_value(broyden_tridiag(-ones(5, 1)), [-2; -1; -1; -1; -3], 1e-15, 'broyden_tridiag');

  % Broyden banded, n = 3, x = [1 2 3]: J_1 = {2}, J_2 = {1,3}, J_3 = {1,2}.
  check_value(broyden_banded_loops([1; 2; 3]), [2; 31; 134], 1e-15, 'broyden_banded_loops');

  % Broyden banded: row i couples to i-5..i+1 only; 7 per row, minus the
  % last row's superdiagonal and 5+4+3+2+1 missing in the first rows.
  n = 12;
  J = fd_jacobian(@broyden_banded_loops, linspace(-1, 1, n).' + 0.3);
  pattern = abs(J) > 1e-8;
  [rows, cols] = find(pattern);
  assert(all(cols - rows <= 1) && all(rows - cols <= 5), 'broyden_banded_loops: band');
  assert(nnz(pattern) == 7*n - 1 - 15, 'broyden_banded_loops: nnz %d', nnz(pattern));

  % Brown at alternating -1, 1: every term is 1 + 1.
  assert(brown_fun([-1; 1; -1; 1; -1]) == 8);

  % Extended Rosenbrock at the standard start: 24.2 per pair.
  [f, F] = ext_rosenbrock([-1.2; 1; -1.2; 1]);
  check_value(F, [-4.4; 2.2; -4.4; 2.2], 1e-14, 'ext_rosenbrock residuals');
  check_value(f, 48.4, 1e-14, 'ext_rosenbrock objective');

  % Robertson conserves mass; its Jacobian by hand.
  y = [0.9; 2e-5; 0.1];
  assert(abs(sum(robertson_rhs(y))) < 1e-18);
  Jhand = [-0.04, 1e4*y(3), 1e4*y(2);
           0.04, -1e4*y(3) - 6e7*y(2), -1e4*y(2);
           0, 6e7*y(2), 0];
  check_jacobian(fd_jacobian(@robertson_rhs, y), Jhand, 1e-8, 'robertson_rhs');

  % Van der Pol: default mu = 1, and the Jacobian by hand for mu = 1000.
  check_value(vanderpol_rhs([2; 0.5]), [0.5; -1.5 - 2], 1e-15, 'vanderpol_rhs default mu');
  mu = 1000;
  y = [2; -0.5];
  Jhand = [0, 1; -2*mu*y(1)*y(2) - 1, mu*(1 - y(1)^2)];
  check_jacobian(cs_jacobian(@(y) vanderpol_rhs(y, mu), y), Jhand, 1e-14, 'vanderpol_rhs');

  % 2-D reaction-diffusion against a stencil written point by point.
  m = 4;
  u = rd2d_init(m) + 0.01 * (1:m^2).';
  h = 1 / (m + 1);
  U = zeros(m + 2);
  U(2:end-1, 2:end-1) = reshape(u, m, m);
  expected = zeros(m, m);
  for i = 1:m
    for j = 1:m
      centre = U(i+1, j+1);
      laplacian = (U(i, j+1) + U(i+2, j+1) + U(i+1, j) + U(i+1, j+2) - 4*centre) / h^2;
      expected(i, j) = 0.1 * laplacian + centre * (1 - centre);
    end
  end
  check_value(rd2d_rhs(u), expected(:), 1e-13, 'rd2d_rhs');
end
