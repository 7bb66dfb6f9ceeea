function test_examples_stiff_pde_demo()
% matlab/examples/msad_stiff_pde_demo at N = 60: both ode15s runs agree, msad needs no more steps,
% and the pattern PNG is written, with the Jacobian's 3 bands per block and 2 coupling diagonals.
  addpath(fullfile(pwd(), 'matlab', 'examples'));
  png = [tempname() '.png'];
  cleanup = onCleanup(@() delete(png));
  printed = evalc('summary = msad_stiff_pde_demo(60, png);');
  assert(~isempty(strfind(printed, 'msad sparse Jacobian')), 'no summary printed:\n%s', printed);
  assert(summary.difference < 1e-4);
  assert(summary.msad.steps <= summary.finite_differences.steps);
  assert(exist(png, 'file') == 2, 'no PNG written');
  image = imread(png);
  assert(ndims(image) >= 2 && all(size(image)(1:2) > 0));
  P = msad_pattern(@(y) brusselator_pde(y, 60), ones(120, 1));
  assert(nnz(P) == 2 * (3 * 60 - 2) + 2 * 60);
end
