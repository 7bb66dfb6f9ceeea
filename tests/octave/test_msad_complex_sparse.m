function test_msad_complex_sparse()
% Complex sparse matrices (issue #22): a complex sparse Ybus read from Octave stays sparse; each
% expression's value, class, issparse and iscomplex are Octave's own, and products with x-dependent
% complex values differentiate (J against central differences of the real and imaginary parts); the
% power-flow least-squares gradient in reverse mode equals forward mode's and central differences.
  [Ybus, ~, ~, ~] = power_flow_network(12);
  Y = Ybus(1:5, 1:5);
  exprs = {@(x, Y) Y * (x + 1i), @(x, Y) (x.' + 2) * Y, @(x, Y) Y * Y, @(x, Y) Y + Y.', @(x, Y) Y - speye(5), ...
           @(x, Y) Y + 1, @(x, Y) 2i * Y, @(x, Y) Y / 4, @(x, Y) conj(Y), @(x, Y) Y', @(x, Y) -Y, @(x, Y) real(Y), ...
           @(x, Y) imag(Y), @(x, Y) abs(Y), @(x, Y) Y(2:3, [1 3]), @(x, Y) Y(:, 1), @(x, Y) Y(1, 1), @(x, Y) full(Y), ...
           @(x, Y) [nnz(Y), size(Y), issparse(Y), iscomplex(Y), isreal(Y)], @(x, Y) Y * sparse([1 0 0 0 0; 0 0 2 0 0; 0 0 0 0 3; 0 1 0 0 0; 0 0 0 4 0])};
  x = (1:5)' / 7;
  for k = 1:numel(exprs)
    label = func2str(exprs{k});
    f = msad_eval(exprs{k}, x, struct(), Y);
    ref = exprs{k}(x, Y);
    assert(strcmp(class(f), class(ref)) && issparse(f) == issparse(ref) && iscomplex(f) == iscomplex(ref) ...
           && isequal(size(f), size(ref)), '%s: class, sparsity, complexity or size differs from Octave''s', label);
    assert(isequal(f ~= 0, ref ~= 0) && max(abs(f(:) - ref(:))) <= 1e-14 * max(1, max(abs(ref(:)))), '%s: value differs', label);
  end
  funs = {@(x, Y) Y * exp(1i * x), @(x, Y) Y.' * (x .* exp(1i * x)), @(x, Y) x.' * Y', ...
          @(x, Y) real(conj(Y * exp(1i * x)) .* x), @(x, Y) (2 * Y + Y.') * [x, x.^2]};
  for k = 1:numel(funs)
    label = func2str(funs{k});
    [f, J] = msad_eval(funs{k}, x, struct(), Y);
    check_value(f, funs{k}(x, Y), 1e-14, label);
    Jfd = fd_jacobian(@(x) funs{k}(x, Y), x);
    check_jacobian(real(J), real(Jfd), 1e-7, [label ': real part of J']);
    check_jacobian(imag(J), imag(Jfd), 1e-7, [label ': imaginary part of J']);
  end
  [Ybus, S, Va, Vm] = power_flow_network(40);
  x = [Va; Vm];
  objective = @(x, Ybus, S) 0.5 * sum(power_mismatch(x, Ybus, S).^2);
  [f, g] = msad_eval(objective, x, struct('mode', 'reverse', 'verbose', false), Ybus, S);
  [~, g_forward] = msad_eval(objective, x, struct('mode', 'forward'), Ybus, S);
  check_value(f, objective(x, Ybus, S), 1e-14, 'least-squares objective');
  assert(max(abs(g - g_forward)) <= 1e-12 * max(abs(g_forward)), 'reverse and forward gradients differ');
  check_jacobian(g.', fd_jacobian(@(x) objective(x, Ybus, S), x), 1e-7, 'least-squares gradient');
  try
    msad_eval(@(x, Y) Y .* x(1:5).', x(1:5), struct(), Y);
    error('test:expected', 'Y .* x was not refused');
  catch err
    assert(strcmp(err.identifier, 'msad:unsupported'), 'Y .* x: %s (%s)', err.message, err.identifier);
  end
end
