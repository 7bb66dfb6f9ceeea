function test_examples_defaults()
% Every example in examples/ finishes in seconds at its default size (a newcomer runs them as they
% are), with its own checks (the solutions agree, msad takes no more iterations) passing.
  examples = {'example_broyden_fsolve', 'example_brusselator_ode15s', 'example_enzyme_least_squares', 'example_robertson_ode23s', ...
              'example_rosenbrock_fminunc', 'example_rosenbrock_newton'};
  for name = examples
    started = tic;
    run_example(name{1});
    seconds = toc(started);
    assert(seconds < 30, '%s took %.0f s at its default size', name{1}, seconds);
  end
end
