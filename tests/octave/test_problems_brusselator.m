function test_problems_brusselator()
% Brusselator: loop and vectorised versions, a hand-evaluated value, the
% initial state, and the Jacobian structure (8N-4 nonzeros, bandwidth 2).

  % N = 2 at y = [u1 v1 u2 v2] = [2 1 0.5 4], diffusion a (N+1)^2 = 0.18:
  %   u1' = 1 + 4 - 8    + 0.18 (1 - 4 + 0.5) = -3.45
  %   v1' = 6 - 4        + 0.18 (3 - 2 + 4)   =  2.9
  %   u2' = 1 + 1 - 2    + 0.18 (2 - 1 + 1)   =  0.36
  %   v2' = 1.5 - 1      + 0.18 (1 - 8 + 3)   = -0.22
  y = [2; 1; 0.5; 4];
  expected = [-3.45; 2.9; 0.36; -0.22];
  check_value(brusselator_rhs(y), expected, 1e-14, 'brusselator_rhs, N = 2');
  check_value(brusselator_rhs_vec(y), expected, 1e-14, 'brusselator_rhs_vec, N = 2');

  % N = 1 at the initial point: every term cancels (u = 1 + sin(pi), v = 3).
  y0 = brusselator_init(1);
  check_value(y0, [1 + sin(pi); 3], 0, 'brusselator_init(1)');
  assert(norm(brusselator_rhs(y0)) < 1e-14);

  y0 = brusselator_init(2);
  check_value(y0, [1 + sqrt(3)/2; 3; 1 - sqrt(3)/2; 3], 1e-15, 'brusselator_init(2)');

  % Loop and vectorised versions agree, for columns and rows.
  rand('state', 1);
  for N = [1 2 7 50]
    for y = {brusselator_init(N), brusselator_init(N) + 0.1*rand(2*N, 1)}
      check_value(brusselator_rhs_vec(y{1}), brusselator_rhs(y{1}), 1e-14, ...
                  sprintf('vec vs loop, N = %d', N));
      row = y{1}.';
      check_value(brusselator_rhs_vec(row), brusselator_rhs(row), 1e-14, ...
                  sprintf('vec vs loop on a row, N = %d', N));
    end
  end

  % Structure: u_i' and v_i' each depend on 4 unknowns, 3 at the ends.
  % A random point avoids accidental zeros (dv_i'/du_i = 3 - 2 u_i v_i).
  for N = [1 3 10]
    y = 0.5 + rand(2*N, 1);
    J = fd_jacobian(@brusselator_rhs, y);
    pattern = abs(J) > 1e-6 * max(abs(J(:)));
    assert(nnz(pattern) == 8*N - 4, 'N = %d: nnz %d, expected %d', N, nnz(pattern), 8*N - 4);
    [rows, cols] = find(pattern);
    assert(max(abs(rows - cols)) <= 2, 'N = %d: bandwidth above 2', N);
  end
end
