function test_msad_brusselator_vec()
% msad_eval on the vectorised Brusselator (index vectors, padding, indexed
% assignment), N = 50.
  y0 = brusselator_init(50);
  [f, J] = msad_eval(@brusselator_rhs_vec, y0);
  check_value(f, brusselator_rhs_vec(y0), 1e-14, 'brusselator_rhs_vec value');
  check_jacobian(J, fd_jacobian(@brusselator_rhs_vec, y0), 1e-7, 'brusselator_rhs_vec Jacobian vs fd');
end
