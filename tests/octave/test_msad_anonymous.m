function test_msad_anonymous()
% msad_eval on anonymous functions: one wrapping a file function, and one
% whose body reads a captured variable p.
  y0 = brusselator_init(50);
  wrapped = @(y) brusselator_rhs(y);
  [f, J] = msad_eval(wrapped, y0);
  check_value(f, brusselator_rhs(y0), 1e-14, '@(y) brusselator_rhs(y) value');
  check_jacobian(J, fd_jacobian(wrapped, y0), 1e-7, '@(y) brusselator_rhs(y) Jacobian vs fd');

  p = [2.5, -1];
  g = @(x) p(1)*x.^2 + sin(x);
  x = [0.3; -1.2; 2];
  [f, J] = msad_eval(g, x);
  check_value(f, g(x), 1e-14, '@(x) p(1)*x.^2 + sin(x) value');
  check_jacobian(J, fd_jacobian(g, x), 1e-7, '@(x) p(1)*x.^2 + sin(x) Jacobian vs fd');
  check_jacobian(J, diag(2*p(1)*x + cos(x)), 1e-14, '@(x) p(1)*x.^2 + sin(x) Jacobian vs exact');
end
