function test_msad_complex()
% Complex values: x-free complex values (literals, captured complex arrays, real functions outside their
% domain) give Octave's values and the right J of real results; a complex value that depends on x carries
% its derivative in forward mode, reverse mode and Hessians; complex results come back complex.
  x = [0.5; -1.25; 2];
  z = [1 + 2i; -3i; 0.5];
  fun = @(x) real(z .* exp(1i * 0.3)) .* x + abs(sqrt(-4)) * x + imag(z' * z) + real(log(-2)) * x.^2;
  [f, J] = msad_eval(fun, x);
  check_value(f, fun(x), 1e-15, 'x-free complex constants around real x');
  % (No complex step here: real() would drop the step.) The Jacobian by hand, and by differences.
  check_jacobian(J, diag(real(z .* exp(1i * 0.3)) + 2 + 2 * log(2) * x), 1e-14, 'J through x-free complex constants');
  check_jacobian(J, fd_jacobian(fun, x), 1e-7, 'J vs finite differences');

  % Values only: complex results, narrowed as Octave narrows them.
  values = {@(x) sqrt(x), @(x) x .^ (1 / 3), @(x) acos(2 * x), @(x) complex(x, 0), @(x) (x + 1i) - 1i, ...
            @(x) sort(x + 1i * flipud(x)), @(x) [x; 1i], @(x) num2str(x(1) + 2i), @(x) (x + 1i).' * (x - 1i)};
  for k = 1:numel(values)
    ref = values{k}(x);
    got = msad_eval(values{k}, x);
    assert(strcmp(class(got), class(ref)) && iscomplex(got) == iscomplex(ref) && isequal(size(got), size(ref)), ...
           '%s: class or complexity differs', func2str(values{k}));
    assert(all(abs(double(got(:)) - double(ref(:))) <= 1e-14 * max(1, abs(double(ref(:))))), '%s: values', func2str(values{k}));
  end

  % A complex value that depends on x carries its derivative (forward mode): J as Octave's differences,
  % real for a real f and complex for a complex f.
  for g = {@(x) sqrt(x), @(x) abs(sqrt(x - 1)), @(x) x * 1i, @(x) real(exp(1i * x)), @(x) [x; 1i]}
    [f, J] = msad_eval(g{1}, x);
    check_value(f, g{1}(x), 1e-15, func2str(g{1}));
    Jfd = fd_jacobian(g{1}, x);
    assert(iscomplex(full(J)) == iscomplex(Jfd), '%s: complexity of J', func2str(g{1}));
    check_jacobian(real(J), real(Jfd), 1e-7, [func2str(g{1}) ': real part of J']);
    check_jacobian(imag(J), imag(Jfd), 1e-7, [func2str(g{1}) ': imaginary part of J']);
    % Reverse mode follows it (the gradient of a real scalar), and so does the Hessian.
    h = g{1};
    objective = @(x) sum(abs(h(x)).^2 + real(h(x)));
    [~, grad] = msad_eval(objective, x, struct('mode', 'reverse'));
    check_jacobian(grad.', fd_jacobian(objective, x), 1e-7, [func2str(h) ': reverse-mode gradient']);
    [~, ~, H] = msad_eval(objective, x);
    check_value(full(H), fd_jacobian(@(y) gradient_of(objective, y), x), 1e-6, [func2str(h) ': H vs differences of g']);
  end
  % Complex x stays a bad input.
  try
    msad_eval(@(x) x, [1i; 2]);
    error('no error for a complex x');
  catch err
    assert(strcmp(err.identifier, 'msad:badInput'), err.identifier);
  end
end

function g = gradient_of(fun, x)
  [~, g] = msad_eval(fun, x);
end
