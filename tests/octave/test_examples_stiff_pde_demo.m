function test_examples_stiff_pde_demo()
% matlab/examples/msad_stiff_pde_demo at its default size: it finishes in seconds, both ode15s
% runs agree, msad needs no more steps and is faster, and the pattern PNG is written, with the
% Jacobian's 3 bands per block and 2 coupling diagonals.
  addpath(fullfile(pwd(), 'matlab', 'examples'));
  png = [tempname() '.png'];
  cleanup = onCleanup(@() delete(png));
  started = tic;
  printed = evalc('summary = msad_stiff_pde_demo([], png);');
  seconds = toc(started);
  assert(seconds < 60, 'the demo took %.0f s', seconds);
  assert(~isempty(strfind(printed, 'msad sparse Jacobian')), 'no summary printed:\n%s', printed);
  assert(summary.difference < 1e-4);
  assert(summary.msad.steps <= summary.finite_differences.steps);
  assert(summary.msad.seconds < summary.finite_differences.seconds);
  assert(exist(png, 'file') == 2, 'no PNG written');
  image = imread(png);
  assert(ndims(image) >= 2 && all(size(image)(1:2) > 0));
  N = 120;
  P = msad_pattern(@(y) brusselator_pde(y, N), ones(2 * N, 1));
  assert(nnz(P) == 2 * (3 * N - 2) + 2 * N);
end
