function test_examples_broyden_fsolve()
% examples/example_broyden_fsolve at n = 50: same root, no more iterations, fewer F calls.
  comparison = run_example('example_broyden_fsolve', 50);
  assert(comparison.msad.counts.function_calls < comparison.reference.counts.function_calls);
  residual = max(abs(broyden_tridiag(comparison.msad.solution)));
  assert(residual < 1e-9, 'Broyden residual %g at the msad root', residual);
end
