function test_examples_brusselator_ode15s()
% examples/example_brusselator_ode15s at N = 10: same solution, no more steps, and msad's Jacobian was used.
  comparison = run_example('example_brusselator_ode15s', 10);
  assert(comparison.msad.counts.jacobian_calls > 0);
  assert(isnan(comparison.reference.counts.jacobian_calls));
end
