function test_msad_hessian()
% Hessians through the MEX: [f, g, H] = msad_eval(...) on the 2-D energy gl2_energy (sparse H,
% 5-point stencil) against the complex-step Jacobian of its gradient written by hand, against
% central differences of msad's gradient, and against the exact formula; on the Brown function
% against the complex step of its hand-written gradient; storage options and errors.
  N = 12;
  x = sin((1:N^2)' * 0.37);
  [f, g, H] = msad_eval(@gl2_energy, x);
  assert(issparse(H) && isequal(size(H), [N^2, N^2]), 'H is a sparse n x n matrix');
  check_value(f, gl2_energy(x), 1e-14, 'value');
  check_value(g, gl2_gradient(x), 1e-12, 'gradient');
  check_value(full(H), cs_jacobian(@gl2_gradient, x), 1e-12, 'H vs complex step of the gradient');
  check_value(full(H), fd_jacobian(@(y) gradient_of(@gl2_energy, y), x), 1e-6, 'H vs differences of g');
  h = 1 / (N + 1);
  K = laplacian(N);
  check_value(full(H), full(K + h^2 * diag(3 * x.^2 - 1)), 1e-12, 'H vs the exact Hessian');
  assert(nnz(H) == 5 * N^2 - 4 * N, 'the 5-point stencil');

  [~, ~, Hfull] = msad_eval(@gl2_energy, x, struct('jacobian', 'full'));
  assert(~issparse(Hfull) && isequal(Hfull, full(H)), 'jacobian = full stores H full');

  y = repmat([-1; 1], 5, 1) .* (0.5 + 0.05 * (1:10)');
  [~, g, H] = msad_eval(@brown_fun, y);
  check_value(g, brown_gradient(y), 1e-12, 'Brown gradient');
  check_value(full(H), cs_jacobian(@brown_gradient, y), 1e-11, 'Brown H vs complex step of the gradient');

  assert_error(@() msad_eval(@(x) x .^ 2, [1; 2]), 'msad:badInput', 'needs a scalar f');
  % Matrix functions and the other norms, against central differences of msad's gradient.
  z = [1.4; 0.3; -0.2; 0.9; 0.5; -0.7];
  A = @(x) [x(1) x(3) 0.2; x(2) x(4) 0.1; 0.3 x(5) 1.5];
  objectives = {@(x) sum(A(x) \ [x(6); 1; 2]), @(x) [1 2 3] / A(x) * [1; x(6); 2], ...
                @(x) det(A(x)) + sum(sum(inv(A(x)) .^ 2)), @(x) sum(sum(A(x) ^ 3 + A(x) ^ -2)), ...
                @(x) norm(x, 3) + norm(x, 1)^2, @(x) sum(interp1(cumsum(abs(x)), x .^ 2, [1.1; 2.3])), ...
                @(x) sum(logspace(x(1), x(2), 4))};
  for k = 1:numel(objectives)
    [~, ~, H] = msad_eval(objectives{k}, z, struct('jacobian', 'full'));
    check_value(H, fd_jacobian(@(y) gradient_of(objectives{k}, y), z), 1e-6, sprintf('objective %d: H vs differences of g', k));
  end
  assert_error(@() msad_eval(@(x) norm(reshape(x, 2, 3)), z), 'msad:notDifferentiable', 'second-order (Hessian) rule for ''norm''');
end

function g = gradient_of(fun, x)
  [~, g] = msad_eval(fun, x);
end

function assert_error(call, identifier, text)
  try
    [~, ~, ~] = call();
  catch err
    assert(strcmp(err.identifier, identifier), 'identifier %s, expected %s', err.identifier, identifier);
    assert(~isempty(strfind(err.message, text)), 'message: %s', err.message);
    return;
  end
  error('no error raised; expected %s', identifier);
end

function K = laplacian(N)
% The unscaled 5-point Laplacian with zero boundary values: 0.5 * u' * K * u = 0.5 * sum(differences.^2).
  e = ones(N, 1);
  T = spdiags([-e, 2 * e, -e], -1:1, N, N);
  K = kron(speye(N), T) + kron(T, speye(N));
end

function g = gl2_gradient(x)
% The gradient of gl2_energy by hand (complex-safe): K u + h^2 (u^3 - u).
  N = round(sqrt(numel(x)));
  h = 1 / (N + 1);
  g = laplacian(N) * x + h^2 * (x.^3 - x);
end

function g = brown_gradient(x)
% The gradient of brown_fun by hand (complex-safe): terms a^(b+1) + b^(a+1) with a = x_i^2, b = x_{i+1}^2.
  n = numel(x);
  g = zeros(n, 1);
  for i = 1:n-1
    a = x(i)^2;
    b = x(i+1)^2;
    % d/da [a^(b+1) + b^(a+1)] = (b+1) a^b + b^(a+1) log(b); symmetric in (a, b).
    da = (b + 1) * a^b + b^(a + 1) * log(b);
    db = (a + 1) * b^a + a^(b + 1) * log(a);
    g(i) = g(i) + da * 2 * x(i);
    g(i+1) = g(i+1) + db * 2 * x(i+1);
  end
end
