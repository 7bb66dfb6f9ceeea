function test_msad_export()
% TEST_MSAD_EXPORT  msad_export writes a standalone .m file: at points other than the export point
% (other branches and masks taken) its f equals the function's own value and its sparse J equals
% msad_eval's Jacobian and central differences; no msad function is called by the file.
  dir = tempname();
  mkdir(dir);
  addpath(dir);
  cleanup = onCleanup(@() remove_scratch(dir));

  p = 3;
  anonymous = @(x) [x(1)^2 * p + x(2); sin(x(2)) .* x(3); sum(x .^ 2) / p; x(1:2) .* x(2:3)];
  check_export(anonymous, [1; 2; 3], {[0.5; -1; 2], [-2; 0.25; 1e3]}, dir, 'anon_jac', {});

  % Captured constants of several classes are written into the file as literals.
  q = struct('w', [1/3; 0.1; 1e-300], 'name', 'it''s', 'cells', {{int8(3), true}});
  S = sparse([1 0 2; 0 pi 0; 4 0 -exp(1)]);
  weighted = @(x) S * x + q.w .* x .^ 2 + double(q.cells{1}) * numel(q.name);
  check_export(weighted, [1; 2; 3], {[-0.5; 0.25; 7]}, dir, 'weighted_jac', {});

  % Matrix products and divisions with differentiated operands on either side.
  M = magic(3) + eye(3);
  matrices = @(x) [M \ x(1:3); (x(1:3).' / M).'; reshape(reshape(x(1:4), 2, 2) * reshape(x(2:5), 2, 2), [], 1); ...
                   reshape(x(1:4), 2, 2) \ x(4:5); (x(4:5).' / reshape(x(1:4), 2, 2)).'; x(5) ^ x(1)];
  check_export(matrices, [1; 2; 3; 5; 4], {[2; -1; 0.5; 3; 1.5]}, dir, 'matrices_jac', {});

  % Complex intermediates between a real x and a real f (a power-flow mismatch on 4 buses).
  Y = [3-9i, -1+3i, 0, -2+6i; -1+3i, 2-6i, -1+3i, 0; 0, -1+3i, 2-6i, -1+3i; -2+6i, 0, -1+3i, 3-9i];
  mismatch = @(x) power_mismatch_parts(x(1:4) .* exp(1i * x(5:8)), Y);
  check_export(mismatch, [1; 1.02; 0.98; 1.01; 0; -0.05; 0.03; 0.1], {[1.1; 0.9; 1; 1.05; 0.2; 0; -0.1; 0.05]}, dir, 'mismatch_jac', {});

  % A banded pattern, valid for every x, needs 3 compressed directions at any n.
  N = 40;
  lap = @(u) [u(2) - 2*u(1); u(3:end) - 2*u(2:end-1) + u(1:end-2); u(end-1) - 2*u(end)] - u.^3;
  check_export(lap, ones(N, 1), {linspace(-2, 2, N).'}, dir, 'lap_jac', {});
  text = fileread(fullfile(dir, 'lap_jac.m'));
  assert(~isempty(strfind(text, 'over 3 compressed directions')), 'lap_jac compresses to 3 directions');
  assert(~isempty(strfind(text, 'valid for every x')), 'lap_jac says its pattern holds for every x');

  c = 0.7;
  points = {linspace(-1, 2, 9).', [3; -1; 0.5; 2; -0.2; 1.5; 0.1; -3; 4], -(1:9).' / 5};
  check_export(@export_model, (1:9).' / 4 + 0.01, points, dir, 'model_jac', {c});
  check_export(@(x) export_model(x, c), (1:9).' / 4 + 0.01, points, dir, 'model_anon_jac', {});

  check_export(@export_flow, [0.5; -2; 1.5], {[3; 1; -0.5], [-1; 2; 0.25]}, dir, 'flow_jac', {'square'});
  check_export(@export_flow, [0.5; -2; 1.5], {[3; 1; -0.5]}, dir, 'flow_abs_jac', {'other'});
  check_export(@switch_mask, [1; -2; 3; -4], {[-1; 2; -3; 4], [0; 0; 1; 1]}, dir, 'mask_jac', {});
  check_export(@loop_branches, [0.2; 0.9; 0.4; 0.7; 0.1], {[0.8; 0.1; 0.6; 0.3; 0.9]}, dir, 'loop_jac', {});
  % A loop whose trip count depends on x: every column is its own direction, exact at every x.
  check_export(@halve_until_small, [0.3; 0.4], {[3; 4.5], [0.1; 0.2]}, dir, 'halve_jac', {});
  text = fileread(fullfile(dir, 'halve_jac.m'));
  assert(~isempty(strfind(text, 'could not prove one pattern')), 'a local pattern is said in the help text');

  % Unsupported code is refused with msad:unsupported naming the place.
  expect_error(@() msad_export(@(x) apply_twice(@(y) y.^2, x), [1; 2], fullfile(dir, 'nope.m')), 'msad:unsupported', 'function handle');
  expect_error(@() msad_export(@(x) cumprod(x), [1; 2], fullfile(dir, 'nope.m')), 'msad:unsupported', 'cumprod');
  expect_error(@() msad_export(@(x) x, [1; 2], fullfile(dir, 'nope.txt')), 'msad:badInput', '.txt');
  printf('  msad_export: 13 exports equal f, msad_eval''s J and central differences at other points\n');
end

function check_export(fun, x0, points, dir, name, extra)
  msad_export(fun, x0, fullfile(dir, [name '.m']), extra{:});
  text = fileread(fullfile(dir, [name '.m']));
  assert(isempty(regexp(text, 'msad_(eval|pattern|export)\s*\(', 'once')), '%s calls msad', name);
  exported = str2func(name);
  for k = 0:numel(points)
    if k == 0, x = x0; else, x = points{k}; end
    [f, J] = exported(x, extra{:});
    [f_msad, J_msad] = msad_eval(fun, x, struct(), extra{:});
    assert(issparse(J), '%s: J is sparse', name);
    assert(isequal(size(J), [numel(f_msad), numel(x)]), '%s: J size', name);
    scale = max(1, max(abs(J_msad(:))));
    assert(max(abs(f(:) - f_msad(:))) <= 1e-13 * max(1, max(abs(f_msad(:)))), '%s: f differs at point %d', name, k);
    assert(max(max(abs(J - J_msad))) <= 1e-12 * scale, '%s: J differs from msad_eval at point %d', name, k);
    J_fd = fd_jacobian(@(y) fun(y, extra{:}), x);
    assert(max(max(abs(J - J_fd))) <= 1e-5 * scale, '%s: J differs from central differences at point %d', name, k);
  end
end
