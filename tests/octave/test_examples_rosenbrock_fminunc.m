function test_examples_rosenbrock_fminunc()
% examples/example_rosenbrock_fminunc at n = 10: same minimiser (ones), no more iterations;
% ext_rosenbrock_vec is the same function as the loop version ext_rosenbrock.
  x = linspace(-2, 2, 10).';
  [f, F] = ext_rosenbrock(x);
  [fVec, FVec] = ext_rosenbrock_vec(x);
  check_value(FVec, F, 1e-14, 'ext_rosenbrock_vec residuals');
  check_value(fVec, f, 1e-12, 'ext_rosenbrock_vec objective');

  comparison = run_example('example_rosenbrock_fminunc', 10);
  check_value(comparison.msad.solution, ones(10, 1), 1e-4, 'fminunc + msad_fgrad minimiser');
end
