%MSAD_DEMO  The Jacobian of a small reactor model (reactor_residual.m) with msad_eval, checked
%   against central differences.

x = [0.5; 0.3; 0.2; 1.1];
[F, J] = msad_eval(@reactor_residual, x);

h = 1e-6 * max(abs(x), 1);
J_fd = zeros(numel(F), numel(x));
for j = 1:numel(x)
  step = zeros(size(x));
  step(j) = h(j);
  J_fd(:, j) = (reactor_residual(x + step) - reactor_residual(x - step)) / (2 * h(j));
end

fprintf('F = reactor_residual(x) at x = [%s ]:\n', sprintf(' %g', x));
disp(F');
fprintf('J = dF/dx from msad_eval:\n');
disp(full(J));
difference = max(abs(J(:) - J_fd(:))) / max(abs(J_fd(:)));
fprintf('max relative difference to central differences: %.2e\n', difference);
if difference > 1e-6
  error('msad:demo', 'msad_eval''s Jacobian differs from central differences');
end
