% BENCH_COMPLEX  Issue #22's power-flow target, measured side by side in this one Octave session: the
% AC power-flow mismatch in complex form, F = [real(mis); imag(mis)], mis = V .* conj(Ybus * V) - S,
% V = Vm .* exp(1j * Va), x = [Va; Vm], on a meshed 2000-bus network with a sparse complex Ybus passed
% as an extra argument (tests/octave/fixtures/power_flow_network.m). J+f against Octave's own f, the
% first call, and J against the hand-coded dSbus_dV Jacobian; then the least-squares objective
% 0.5 * sum(F.^2): f+g+H against its f, H times a direction against differences of the gradient.
% Times: process CPU time (medians). MSAD_BENCH_BASELINE names another build of msad_eval on the
% path (e.g. msad_eval_main, a copy of main's msad_eval.mex): its J+f is timed in the same session.
%   octave-cli benches/octave/bench_complex.m
benchDir = fileparts(mfilename('fullpath'));
repoRoot = fileparts(fileparts(benchDir));
addpath(benchDir, fullfile(repoRoot, 'tests', 'octave', 'fixtures'), fullfile(repoRoot, 'matlab'));
runs = 5;
baseline = getenv('MSAD_BENCH_BASELINE');
if isempty(baseline)
  disp('| problem | n | f (ms) | msad J+f (ms) | ratio | target | first call (s) | check |');
  disp('|---|---|---|---|---|---|---|---|');
else
  printf('| problem | n | f (ms) | msad J+f (ms) | ratio | %s J+f (ms) | its ratio | target | first call (s) | check |\n', baseline);
  disp('|---|---|---|---|---|---|---|---|---|---|');
end
for buses = [500, 2000]
  [Ybus, S, Va, Vm] = power_flow_network(buses);
  x = [Va; Vm];
  clear msad_eval;
  tic; [~, J] = msad_eval(@power_mismatch, x, struct(), Ybus, S); first = toc;
  V = Vm .* exp(1j * Va);
  n = buses;
  diagV = spdiags(V, 0, n, n);
  diagIbus = spdiags(Ybus * V, 0, n, n);
  diagVnorm = spdiags(V ./ abs(V), 0, n, n);
  Jhand = [real([1j * diagV * conj(diagIbus - Ybus * diagV), diagV * conj(Ybus * diagVnorm) + conj(diagIbus) * diagVnorm]);
           imag([1j * diagV * conj(diagIbus - Ybus * diagV), diagV * conj(Ybus * diagVnorm) + conj(diagIbus) * diagVnorm])];
  check = sprintf('sparse %d, same pattern %d, rel. error %.1e', issparse(J), isequal(J ~= 0, Jhand ~= 0), ...
                  max(abs(nonzeros(J - Jhand))) / max(abs(nonzeros(Jhand))));
  tf = bench_median_time(@() power_mismatch(x, Ybus, S), runs, 0.2);
  tm = bench_median_time(@() msad_jacobian_call(@power_mismatch, x, struct(), Ybus, S), runs, 0.2);
  against = '';
  if ~isempty(baseline)
    tb = bench_median_time(@() evaluator_jacobian_call(str2func(baseline), @power_mismatch, x, struct(), Ybus, S), runs, 0.2);
    against = sprintf(' %.3g | %.1f |', 1e3 * tb, tb / tf);
  end
  printf('| power-flow mismatch, complex form, sparse Ybus | %d buses (n = %d) | %.3g | %.3g | %.1f |%s <= 5x f, first call <= 1 s | %.3g | %s |\n', ...
         buses, 2 * buses, 1e3 * tf, 1e3 * tm, tm / tf, against, first, check);
end
disp('');
disp('| problem | n | f (ms) | msad f+g+H (ms) | ratio | first call (s) | nnz(H) | check |');
disp('|---|---|---|---|---|---|---|---|');
for buses = [500, 2000]
  [Ybus, S, Va, Vm] = power_flow_network(buses);
  x = [Va; Vm];
  objective = @(x) 0.5 * sum(power_mismatch(x, Ybus, S).^2);
  clear msad_eval;
  tic; [~, ~, H] = msad_eval(objective, x); first = toc;
  % H v against central differences of the (exact) gradient along v.
  v = cos((1:numel(x))');
  step = 1e-6;
  [~, g_plus] = msad_eval(objective, x + step * v);
  [~, g_minus] = msad_eval(objective, x - step * v);
  Hv = (g_plus - g_minus) / (2 * step);
  check = sprintf('sparse %d, H v vs FD: rel. error %.1e', issparse(H), norm(H * v - Hv, inf) / norm(Hv, inf));
  tf = bench_median_time(@() objective(x), runs, 0.2);
  tm = bench_median_time(@() msad_hessian_call(objective, x), runs, 0.2);
  printf('| power-flow least squares 0.5 * sum(F.^2), Hessian | %d buses (n = %d) | %.3g | %.3g | %.1f | %.3g | %d | %s |\n', ...
         buses, 2 * buses, 1e3 * tf, 1e3 * tm, tm / tf, first, nnz(H), check);
end
