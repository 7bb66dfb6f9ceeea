% Brusselator right-hand side (N = 40, 80 unknowns u1 v1 u2 v2 ...): the
% Jacobian by full, sparse and compressed fmad seeds against the hand-written
% Jacobian and central differences; the pattern has 8N-4 entries and five
% colours suffice.
fmadtest_setup;
N = 40;
x_grid = (1:N)' / (N + 1);
y0 = reshape([1 + sin(2*pi*x_grid), 3 + 0.2*x_grid].', [], 1);
J_hand = fmadtest_brusselator_jacobian(y0);
if nnz(J_hand) ~= 8*N - 4
  error('hand Jacobian has %d entries, expected %d', nnz(J_hand), 8*N - 4);
end
fmadtest_check(J_hand, fd_jacobian(@brusselator_rhs_vec, y0), 1e-7, ...
               'hand Jacobian vs central differences');

y = brusselator_rhs_vec(fmad(y0, eye(2*N)));
fmadtest_check(getvalue(y), brusselator_rhs_vec(y0), 1e-15, 'value');
fmadtest_check(getinternalderivs(y), J_hand, 1e-14, 'full identity seed');

J_sparse = getinternalderivs(brusselator_rhs_vec(fmad(y0, speye(2*N))));
if ~issparse(J_sparse) || nnz(J_sparse) > nnz(J_hand)
  error('sparse seed: Jacobian not sparse or with extra entries');
end
fmadtest_check(J_sparse, J_hand, 1e-14, 'sparse identity seed');

pattern = J_hand ~= 0;
colours = MADcolor(pattern);
if max(colours) > 5
  error('%d colours for a bandwidth-5 pattern', max(colours));
end
compressed = getinternalderivs(brusselator_rhs_vec(fmad(y0, MADgetseed(pattern, colours))));
fmadtest_check(MADuncompressJac(compressed, pattern, colours), J_hand, 1e-14, 'compressed seed');
