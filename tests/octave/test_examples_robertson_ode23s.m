function test_examples_robertson_ode23s()
% examples/example_robertson_ode23s on [0, 0.05]: same solution, no more steps than with
% JPattern (from msad_pattern).
  comparison = run_example('example_robertson_ode23s', 0.05);
  assert(comparison.msad.counts.jacobian_calls > 0);
  % The example's JPattern, by msad_pattern, against robertson_rhs read by hand.
  pattern = msad_pattern(@robertson_rhs, [1; 0; 0]);
  assert(isequal(full(pattern), [1 1 1; 1 1 1; 0 1 0]));
end
