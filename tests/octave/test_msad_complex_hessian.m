function test_msad_complex_hessian()
% Hessians of real objectives through complex intermediates ([f, g, H] = msad_eval(...)): f as Octave's
% own value and class, g and H real, H n x n (sparse where it pays) against central differences of
% msad's gradient and the complex step of a gradient written by hand; the power-flow least-squares
% Hessian through a sparse complex Ybus; a complex f is msad:badInput.
  x = [0.7; -1.3; 2.1; 0.4];
  B = [4 + 1i, 0.5 + 0.5i, 0, 1; 1, 3 - 2i, 2 + 1i, 0; -1i, 1, 5 + 0.3i, 0; 0, 0, 1, 2];
  objectives = {@(x) sum(abs(exp(1i * x)).^2 + real(x .* exp(2i * x))), @(x) sum(abs(x + 1i * x.^2).^2), ...
                @(x) sum(angle(x + 2i + 1i * x.^3) .* x), @(x) real(sum(conj(x + 1i * x.^2) .* log(x + 3i))), ...
                @(x) sum(abs(fft(x .* exp(1i * x))).^2) + sum(real(ifft(x.^2 + 1i * x))), ...
                @(x) sum(real((x + 1i) .^ x) + abs(sqrt(x - 2))), @(x) sum(abs((B + diag(x.^2)) \ (x + 1i)).^2), ...
                @(x) imag(sum(x.' / (B + 1i * diag(x))))};
  for k = 1:numel(objectives)
    label = func2str(objectives{k});
    [f, g, H] = msad_eval(objectives{k}, x);
    ref = objectives{k}(x);
    assert(strcmp(class(f), class(ref)) && isreal(f) && isscalar(f), '%s: f is a real double scalar as Octave''s', label);
    check_value(f, ref, 1e-14, label);
    assert(isreal(g) && isequal(size(g), size(x)) && isreal(H) && isequal(size(H), [4 4]), '%s: g and H real, n x 1 and n x n', label);
    check_value(full(H), fd_jacobian(@(y) gradient_of(objectives{k}, y), x), 1e-6, [label ': H vs differences of g']);
    check_value(full(H), full(H).', 1e-12, [label ': H symmetric']);
  end
  % abs(x .* exp(2i x) + 1).^2 = x.^2 + 2 x cos(2x) + 1: H against the complex step of its gradient.
  y = (0.3 * (1:8) - 1)';
  [~, ~, H] = msad_eval(@(x) sum(abs(x .* exp(2i * x) + 1).^2), y);
  assert(issparse(H), 'a diagonal H is sparse');
  check_value(full(H), cs_jacobian(@(x) 2 * x + 2 * cos(2 * x) - 4 * x .* sin(2 * x), y), 1e-12, 'H vs complex step');
  % Parseval: sum(abs(fft(x)).^2) = n sum(x.^2).
  [~, ~, H] = msad_eval(@(x) sum(abs(fft(x)).^2), y, struct('jacobian', 'full'));
  assert(~issparse(H), 'jacobian = full stores H full');
  check_value(H, 16 * eye(8), 1e-13, 'H of sum(abs(fft(x)).^2)');

  [Ybus, S, Va, Vm] = power_flow_network(100);
  z = [Va; Vm];
  objective = @(x) 0.5 * sum(power_mismatch(x, Ybus, S).^2);
  [f, g, H] = msad_eval(objective, z);
  check_value(f, objective(z), 1e-13, 'power-flow least squares');
  assert(issparse(H) && isreal(H) && isequal(size(H), [200 200]), 'the power-flow H is real, sparse and n x n');
  v = cos((1:200)');
  step = 1e-6;
  Hv = (gradient_of(objective, z + step * v) - gradient_of(objective, z - step * v)) / (2 * step);
  check_value(H * v, Hv, 1e-6, 'power-flow H v vs differences of g');

  expect_error(@() hessian_of(@(y) sum(exp(1i * y)), x), 'msad:badInput', 'f is complex');
end

function g = gradient_of(fun, x)
  [~, g] = msad_eval(fun, x);
end

function hessian_of(fun, x)
  [~, ~, ~] = msad_eval(fun, x);
end
