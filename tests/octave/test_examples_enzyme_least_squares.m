function test_examples_enzyme_least_squares()
% examples/example_enzyme_least_squares, one fit: the fsolve variant (Octave core) always; the
% lsqnonlin variant when the optim package is installed (then unloaded, so that statistics'
% replacements of core functions do not leak into later tests). Both reach the published minimum.
  minimum = 3.07505e-4;
  comparison = run_example('example_enzyme_least_squares', 1, 'fsolve');
  assert(abs(sum(enzyme_residual(comparison.msad.solution).^2) - minimum) < 1e-9);

  installed = cellfun(@(p) p.name, pkg('list'), 'UniformOutput', false);
  if any(strcmp(installed, 'optim'))
    loadedBefore = cellfun(@(p) p.name, pkg('list'), 'UniformOutput', false)(cellfun(@(p) p.loaded, pkg('list')));
    cleanup = onCleanup(@() unload_new_packages(loadedBefore));
    comparison = run_example('example_enzyme_least_squares', 1, 'lsqnonlin');
    assert(abs(sum(enzyme_residual(comparison.msad.solution).^2) - minimum) < 1e-9);
  end
end

function unload_new_packages(loadedBefore)
  packages = pkg('list');
  for k = 1:numel(packages)
    if packages{k}.loaded && ~any(strcmp(loadedBefore, packages{k}.name))
      pkg('unload', packages{k}.name);
    end
  end
end
