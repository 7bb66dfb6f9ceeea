function test_examples_robertson_ode23s()
% examples/example_robertson_ode23s on [0, 0.05]: same solution, no more steps than with JPattern.
  comparison = run_example('example_robertson_ode23s', 0.05);
  assert(comparison.msad.counts.jacobian_calls > 0);
end
