function test_msad_fft()
% fft and ifft (issue #22): values, class, complexity and size as Octave's own (padding, truncation,
% dimensions, matrices, lengths that are and are not powers of two), J against central differences.
  x = [0.7; -1.3; 2.1; 0.4; -0.2];
  exprs = {@(x) fft(x), @(x) fft(x, 8), @(x) fft(x, 3), @(x) fft(x.'), @(x) ifft(x), @(x) ifft(exp(1i * x), 7), ...
           @(x) fft([x, x.^2]), @(x) fft([x, x.^2], [], 2), @(x) fft([x, x.^2], 4, 1), @(x) ifft(fft(x)), ...
           @(x) fft(x(1)), @(x) fft(x(1:2)), @(x) fft([1; 2; 3; 2] * x(1)), @(x) abs(fft(x .* exp(1i * x))).^2, ...
           @(x) fft(repmat(x, 1, 40))};
  for k = 1:numel(exprs)
    label = func2str(exprs{k});
    f = msad_eval(exprs{k}, x);
    ref = exprs{k}(x);
    assert(strcmp(class(f), class(ref)) && iscomplex(f) == iscomplex(ref) && isequal(size(f), size(ref)), ...
           '%s: class, complexity or size differs from Octave''s', label);
    check_value(f, ref, 1e-13, label);
    [~, J] = msad_eval(exprs{k}, x);
    if isscalar(f)
      J = J.';  % a scalar f's derivative is the gradient column
    end
    Jfd = fd_jacobian(exprs{k}, x);
    check_jacobian(real(J), real(Jfd), 1e-7, [label ': real part of J']);
    check_jacobian(imag(J), imag(Jfd), 1e-7, [label ': imaginary part of J']);
  end
  objective = @(x) sum(abs(fft(x .* exp(1i * x), 16)).^2);
  [~, g] = msad_eval(objective, x, struct('mode', 'reverse'));
  check_jacobian(g.', fd_jacobian(objective, x), 1e-7, 'reverse-mode gradient through fft');
end
