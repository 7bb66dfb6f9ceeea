function test_msad_reverse()
% Reverse mode through the MEX: a scalar output returns the gradient as a numel(x) x 1 column in
% both modes, equal to forward mode's; fminunc with this gradient solves extended Rosenbrock
% (n = 100) and the Brown function (n = 20). (n = 1000 on extended Rosenbrock: 1837
% BFGS iterations, 244 s, f = 7e-16 — quasi-Newton without a Hessian is what limits it.)
  x0 = repmat([-1.2; 1], 50, 1);
  [f, g] = msad_eval(@ext_rosenbrock, x0, struct('mode', 'reverse'));
  [f_forward, g_forward] = msad_eval(@ext_rosenbrock, x0, struct('mode', 'forward'));
  assert(isequal(size(g), [100, 1]), 'gradient is a column');
  assert(f == f_forward && f == ext_rosenbrock(x0), 'values agree');
  assert(norm(g - g_forward, inf) <= 1e-12 * norm(g, inf), 'reverse and forward gradients agree');
  check_value(g, fd_jacobian(@ext_rosenbrock, x0).', 1e-6, 'ext_rosenbrock gradient vs fd');

  opts = optimset('GradObj', 'on', 'TolFun', 1e-12, 'TolX', 1e-12, 'MaxIter', 2000, 'Display', 'off');
  x0 = repmat([-1.2; 1], 50, 1);
  tic;
  [x, fval, info, output] = fminunc(@(x) msad_eval(@ext_rosenbrock, x), x0, opts);
  printf('    fminunc, extended Rosenbrock n = 100 with the msad gradient: %d iterations, %.2f s, f = %.2e\n', ...
         output.iterations, toc, fval);
  assert(info > 0 && fval < 1e-10 && norm(x - 1, inf) < 1e-4, 'fminunc converges on extended Rosenbrock');

  x0 = repmat([-1; 1], 10, 1) / 2;
  [~, fval, info] = fminunc(@(x) msad_eval(@brown_fun, x), x0, opts);
  assert(fval < 1e-6 * brown_fun(x0), sprintf('fminunc on the Brown function: f = %g (info %d)', fval, info));
end
