function test_msad_brusselator()
% msad_eval on the scalar-loop Brusselator, N = 50 (100 x 100 banded Jacobian).
  y0 = brusselator_init(50);
  [f, J] = msad_eval(@brusselator_rhs, y0);
  check_value(f, brusselator_rhs(y0), 1e-14, 'brusselator_rhs value');
  check_jacobian(J, fd_jacobian(@brusselator_rhs, y0), 1e-7, 'brusselator_rhs Jacobian vs fd');
end
