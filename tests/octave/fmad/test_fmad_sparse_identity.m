% fmad with a sparse identity seed: derivatives stay sparse through
% elementwise operations, shifts by indexing and concatenation, and the
% Jacobian of a Broyden tridiagonal function matches the hand formula.
%   F_i = (3 - 2 x_i) x_i - x_{i-1} - 2 x_{i+1} + 1,  x_0 = x_{n+1} = 0
fmadtest_setup;
broyden = @(x) (3 - 2*x) .* x - [0; x(1:end-1)] - 2*[x(2:end); 0] + 1;
n = 50;
x0 = -ones(n, 1) + 0.1 * sin(1:n)';
y = broyden(fmad(x0, speye(n)));
J = getinternalderivs(y);
if ~issparse(J)
  error('sparse seed gave full derivatives');
end
hand = spdiags([-ones(n,1), 3 - 4*x0, -2*ones(n,1)], -1:1, n, n);
fmadtest_check(getvalue(y), broyden(x0), 1e-15, 'value');
fmadtest_check(J, hand, 1e-15, 'Jacobian vs hand');
fmadtest_check(J, fd_jacobian(broyden, x0), 1e-7, 'Jacobian vs central differences');
if nnz(J) ~= nnz(hand)
  error('Jacobian has %d stored entries, expected %d', nnz(J), nnz(hand));
end
