function test_msad_complex_derivatives()
% Derivatives through complex intermediates (forward mode): values and class as Octave's own, J against
% central differences of the real and imaginary parts, and the AC power-flow mismatch in complex form,
% whose J must have the pattern and values of the hand-coded dSbus_dV Jacobian.
  x = [0.7; -1.3; 2.1];
  A = [1 + 2i, 0, -1 + 1i; 0.5 - 1i, 2, 0.3 + 0.2i];
  funs = {@(x) exp(1i * x) .* x, @(x) abs(x + 1i * x.^2), @(x) angle(x - 2i), @(x) conj(x .* exp(1i * x)), ...
          @(x) complex(x, x.^2), @(x) (x + 1i) .^ x, @(x) A * exp(1i * x), @(x) [x.' * 1i, 3], ...
          @(x) sum(log(x + 0.5i * x.^2)) * x, @(x) (x + 1i * x.^2)', @(x) imag(sqrt(x - 3)) + real(sin(x + 1i)), ...
          @(x) sec(x + 2i) + csc(x - 0.5i) .* cot(x + 1i)};
  for k = 1:numel(funs)
    label = func2str(funs{k});
    [f, J] = msad_eval(funs{k}, x);
    ref = funs{k}(x);
    assert(strcmp(class(f), class(ref)) && iscomplex(f) == iscomplex(ref) && isequal(size(f), size(ref)), ...
           '%s: class, complexity or size differs from Octave''s', label);
    check_value(f, ref, 1e-14, label);
    Jfd = fd_jacobian(funs{k}, x);
    assert(iscomplex(full(J)) == iscomplex(Jfd), '%s: J is complex exactly when f is', label);
    check_jacobian(real(J), real(Jfd), 1e-7, [label ': real part of J']);
    check_jacobian(imag(J), imag(Jfd), 1e-7, [label ': imaginary part of J']);
  end
  % exp(1i*0) is real for Octave; its derivative is 1i.
  [f, J] = msad_eval(@(x) exp(1i * x), 0);
  assert(isreal(f) && f == 1 && J == 1i, 'exp(1i*x) at 0');

  [Ybus, S, Va, Vm] = power_flow_network(300);
  x = [Va; Vm];
  n = numel(Va);
  V = Vm .* exp(1j * Va);
  Ibus = Ybus * V;
  diagV = spdiags(V, 0, n, n);
  diagIbus = spdiags(Ibus, 0, n, n);
  diagVnorm = spdiags(V ./ abs(V), 0, n, n);
  dS_dVa = 1j * diagV * conj(diagIbus - Ybus * diagV);
  dS_dVm = diagV * conj(Ybus * diagVnorm) + conj(diagIbus) * diagVnorm;
  Jhand = [real([dS_dVa, dS_dVm]); imag([dS_dVa, dS_dVm])];
  for call = 1:2
    [F, J] = msad_eval(@power_mismatch, x, struct(), Ybus, S);
    check_value(F, power_mismatch(x, Ybus, S), 1e-14, 'power-flow mismatch');
    assert(issparse(J) && isreal(J), 'call %d: J is real and sparse', call);
    assert(isequal(J ~= 0, Jhand ~= 0), 'call %d: the pattern of the hand-coded dSbus_dV', call);
    assert(max(abs(nonzeros(J - Jhand))) <= 1e-13 * max(abs(nonzeros(Jhand))), 'call %d: J equals the hand-coded one', call);
  end
end
