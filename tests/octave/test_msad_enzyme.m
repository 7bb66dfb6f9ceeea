function test_msad_enzyme()
% msad_eval on the enzyme residual (loops, scalar indexing, 11 x 4 Jacobian):
% the value equals Octave's to 1e-14, the Jacobian matches central differences to 1e-7.
  x0 = enzyme_init();
  [f, J] = msad_eval(@enzyme_residual, x0);
  check_value(f, enzyme_residual(x0), 1e-14, 'enzyme_residual value');
  check_jacobian(J, fd_jacobian(@enzyme_residual, x0), 1e-7, 'enzyme_residual Jacobian vs fd');
end
