function test_msad_scalar_paths()
% Scalar loop code (msad's scalar fast path): values equal Octave's, J matches central
% differences in every mode, and what the fast path leaves to the general path still errs.
  x = [0.7; -1.3; 0.4; 2.1; -0.2];
  expected = scalar_paths(x);
  reference = fd_jacobian(@scalar_paths, x);
  for mode = {'full', 'auto', 'sparse'}
    opts = struct('jacobian', mode{1});
    [f, J] = msad_eval(@scalar_paths, x, opts);
    check_value(f, expected, 1e-15, ['scalar_paths value, ' mode{1}]);
    check_jacobian(J, reference, 1e-7, ['scalar_paths Jacobian, ' mode{1}]);
  end
  % A complex scalar leaves the fast path: the general path differentiates it, or errs where it has
  % no rule for complex values (max).
  complexRoot = @(x) sqrt(x(1) - 2);
  [f, g] = msad_eval(complexRoot, x);
  check_value(f, complexRoot(x), 1e-15, 'complex scalar root');
  check_value(g, [0.5 / sqrt(x(1) - 2); zeros(4, 1)], 1e-15, 'complex scalar root: gradient');
  complexMax = @(x) max(sqrt(x(1) - 2), 1i);
  outOfRange = @(x) x(1) * (0 / 0 > -1 || isnan(x(7)));
  expect_error(complexMax, x, 'msad:unsupported');
  expect_error(outOfRange, x, 'Octave:index-out-of-bounds');
end

function expect_error(f, x, identifier)
  try
    [~, J] = msad_eval(f, x);
  catch err
    assert(strcmp(err.identifier, identifier), 'identifier %s, not %s', err.identifier, identifier);
    return;
  end
  error('no error raised');
end
