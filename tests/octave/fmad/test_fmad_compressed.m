% Compressed Jacobian: MADcolor / MADgetseed seed, J*S from fmad, recovery
% with MADuncompressJac, for the Brusselator (bandwidth 5) and a function
% with an irregular pattern.
fmadtest_setup;
n = 30;                                    % 2n unknowns u1 v1 u2 v2 ...
x_grid = (1:n)' / (n + 1);
y0 = reshape([1 + sin(2*pi*x_grid), 3 + 0.1*cos(pi*x_grid)].', [], 1);
J_hand = fmadtest_brusselator_jacobian(y0);
pattern = J_hand ~= 0;
colours = MADcolor(pattern);
if max(colours) > 5 || max(colours) < max(full(sum(pattern, 2)))
  error('Brusselator pattern coloured with %d colours (expected 4 or 5)', max(colours));
end
seed = MADgetseed(pattern, colours);
if ~isequal(size(seed), [2*n, max(colours)]) || any(sum(seed, 2) ~= 1)
  error('seed is not an n x p 0/1 matrix with one 1 per row');
end
% Structurally orthogonal columns: no row meets two columns of one colour.
if any(any((double(pattern) * seed) > 1))
  error('colouring puts two columns sharing a row in one colour');
end
compressed = getinternalderivs(brusselator_rhs_vec(fmad(y0, seed)));
fmadtest_check(compressed, J_hand * seed, 1e-14, 'compressed Jacobian J*S');
J = MADuncompressJac(compressed, pattern, colours);
if ~issparse(J)
  error('recovered Jacobian is not sparse');
end
fmadtest_check(J, J_hand, 1e-14, 'recovered Brusselator Jacobian');
fmadtest_check(J, fd_jacobian(@brusselator_rhs_vec, y0), 1e-7, ...
               'recovered Jacobian vs central differences');

% Irregular pattern: a sparse linear map followed by elementwise nonlinearity.
A = sparse([1 1 2 3 3 4 5 5 5], [1 4 2 3 6 5 1 2 6], [2 -1 3 1 4 -2 1 1 1], 5, 6);
g = @(x) exp(A * x) + [x(1) * x(3); x(2)^2; 0; x(4) * x(6); 0];
x0 = [0.1; 0.2; -0.3; 0.4; 0.5; -0.6];
g_pattern = (A ~= 0) | sparse([1 1 2 4 4], [1 3 2 4 6], 1, 5, 6);
c = MADcolor(g_pattern);
Jg = MADuncompressJac(getinternalderivs(g(fmad(x0, MADgetseed(g_pattern, c)))), g_pattern, c);
fmadtest_check(Jg, fd_jacobian(g, x0), 1e-7, 'irregular pattern vs central differences');
