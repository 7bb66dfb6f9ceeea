function test_examples_rosenbrock_newton()
% examples/example_rosenbrock_newton at n = 20: Newton on msad's Hessian reaches the minimiser (ones)
% in fewer iterations than fminunc's BFGS with msad's gradient; H is the exact Hessian.
  comparison = run_example('example_rosenbrock_newton', 20);
  check_value(comparison.msad.solution, ones(20, 1), 1e-8, 'Newton + msad Hessian minimiser');
  assert(comparison.msad.counts.iterations < comparison.reference.counts.iterations);

  % H of the residual form f = sum(F.^2) against the Gauss-Newton part plus the residual curvature.
  x = linspace(-1.5, 1.5, 8).';
  [f, g, H] = msad_eval(@ext_rosenbrock_vec, x);
  [~, F] = ext_rosenbrock_vec(x);
  check_value(g, fd_gradient(@ext_rosenbrock_vec, x), 1e-6, 'gradient');
  H2 = zeros(8);
  for i = 1:2:8
    H2(i:i+1, i:i+1) = [1200 * x(i)^2 - 400 * x(i+1) + 2, -400 * x(i); -400 * x(i), 200];
  end
  check_value(full(H), H2, 1e-12, 'Hessian');
end

function g = fd_gradient(f, x)
  g = zeros(size(x));
  for j = 1:numel(x)
    h = 1e-6 * max(1, abs(x(j)));
    e = zeros(size(x));
    e(j) = h;
    g(j) = (f(x + e) - f(x - e)) / (2 * h);
  end
end
