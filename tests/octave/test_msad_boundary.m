function test_msad_boundary()
% Input deep enough to overflow a stack, a handle whose workspace holds itself and sizes beyond
% memory give Octave's or msad's clear errors, and Octave carries on: 12,500 and 100,000 transposes
% after a power, a chain of anonymous functions deeper than Octave's max_recursion_depth, structs
% and cells nested 4,000-5,000 deep (read) and 20,000 deep (refused: Octave itself crashes freeing
% such values 100,000 deep), a nested function's handle (read without recursion: its workspace holds
% the handle itself), an array of 80 TB, a product of 8 TB, the sparsity pattern of a dense 1e6 x 1e6 J.
  x = [1; 2];
  scratch = tempname();
  mkdir(scratch);
  addpath(scratch);
  cleanup = onCleanup(@() remove_scratch(scratch));

  write_transposes(scratch, 'deep_transposes', 12500);
  expect_error(@() msad_eval(@deep_transposes, x), 'msad:parse', 'nested more than');
  write_transposes(scratch, 'deeper_transposes', 1e5);
  expect_error(@() msad_eval(@deeper_transposes, x), 'msad:parse', 'nested more than');

  % Octave stops calling this chain at its max_recursion_depth (256); so does msad, with the
  % identifier later Octave versions give (Octave 7's is empty).
  f = @(x) x;
  for k = 1:1200
    f = @(x) f(x) + 1;
  end
  try
    f(1);
    error('test:noError', 'Octave called a chain of 1200 anonymous functions');
  catch err
    assert(~isempty(strfind(err.message, 'max_recursion_depth exceeded')), err.message);
  end
  expect_error(@() msad_eval(f, x), 'Octave:recursion-depth', 'max_recursion_depth exceeded');
  for k = 1201:20000
    f = @(x) f(x) + 1;
  end
  expect_error(@() msad_eval(f, x), 'msad:badInput', 'levels deep');

  s = nest_structs(4000);
  [v, J] = msad_eval(@(x, s) x, x, struct(), s);
  assert(isequal(v, x) && isequal(full(J), eye(2)), 'struct 4000 deep as an extra argument');
  [v, J] = msad_eval(@(x) x + struct_depth(s), x);
  assert(isequal(v, x + 4000) && isequal(full(J), eye(2)), 'struct 4000 deep captured');
  c = nest_cells(5000);
  [v, J] = msad_eval(@(x, c) 3 * x, x, struct(), c);
  assert(isequal(v, 3 * x) && isequal(full(J), 3 * eye(2)), 'cell 5000 deep as an extra argument');
  expect_error(@() msad_eval(@(y, s) y, x, struct(), nest_structs(20000)), 'msad:badInput', 'levels deep');
  expect_error(@() msad_eval(@(y, c) y, x, struct(), nest_cells(20000)), 'msad:badInput', 'levels deep');
  deep = nest_cells(20000);
  expect_error(@() msad_eval(@(y) y + numel(deep), x), 'msad:badInput', 'levels deep');

  [v, J] = msad_eval(nested_handle(), x);
  assert(isequal(v, 2 * x) && isequal(J, 2 * eye(2)), 'a nested function''s handle');

  expect_error(@() msad_eval(@(y) y + numel(ones(1e13, 1)), x), 'Octave:out-of-memory', 'out of memory');
  expect_error(@() msad_eval(@(x) x * x', rand(1e6, 1)), 'Octave:out-of-memory', 'out of memory');
  % The first call detects J's sparsity: 1e12 entries.
  expect_error(@() jacobian_of(@(x) x * sum(x), rand(1e6, 1)), 'Octave:out-of-memory', 'out of memory');
  % A J too large for memory (1e10 entries) says what needs less: J*v by opts.seed, a reverse gradient.
  K = spdiags(ones(1e5, 1) * [-1 2 -1], -1:1, 1e5, 1e5);
  expect_error(@() jacobian_of(@(x) K \ x, ones(1e5, 1)), 'Octave:out-of-memory', 'opts.seed');
  % Kernels that build their results from sizes and outer combinations (tests/no_abort.rs probes
  % every kernel; these go through the whole MEX).
  huge = {@(y) y + numel(repmat(y, 1e11, 1)), @(y) y + numel(kron(ones(1e6, 1), ones(1e6, 1))), ...
          @(y) y + numel(linspace(0, 1, 1e12)), @(y) y + sum(ones(1e6, 1) + ones(1, 1e6), 'all'), ...
          @(y) y + numel(meshgrid(1:1e6, 1:1e6)), @(y) y + numel(full(sparse(1e6, 1e6))), ...
          @(y) y + numel(accumarray([1e12; 1], [1; 2])), @(y) y + numel(blanks(1e12)), ...
          @(y) y + numel(diag(ones(1e6, 1))), @(y) y + numel(repmat('ab', 1e6, 1e6)), ...
          @(y) y + numel(speye(1e12)), @(y) y + numel(cat(1e12, y, y)), @(y) grow_to(y, 1e12, 'array'), ...
          @(y) grow_to(y, 1e12, 'cell'), @(y) grow_to(y, 1e12, 'struct'), ...
          @(y) y + numel(sprintf('%1000000000000d', 1))};
  for k = 1:numel(huge)
    expect_error(@() msad_eval(huge{k}, x), 'Octave:out-of-memory', 'out of memory');
  end
  % Dimensions past the last are singletons, as Octave has them (no walk over 1e12 dims).
  assert(isequal(msad_eval(@(y) sum(y, 1e12), x), x) && isequal(msad_eval(@(y) cumsum(y, 1e12), x), x), 'sum(x, 1e12)');
  assert(isequal(msad_eval(@(y) size(diff(y, 1e7)), x), size(diff(x, 1e7))), 'diff(x, 1e7)');
  assert(strcmp(msad_eval(@(y) num2str(pi, 1e7), x), num2str(pi, 1e7)), 'num2str(pi, 1e7) is exact');
  expect_error(@() msad_eval(@(y) y + for_item(y, 1), x), 'Octave:undefined-function', 'for_item');

  % msad carries on after each.
  [v, J] = msad_eval(@(x) x.^2, x);
  assert(isequal(v, x.^2) && isequal(full(J), diag(2 * x)), 'a call after the errors');
end

function J = jacobian_of(f, x)
  [~, J] = msad_eval(f, x);
end

function write_transposes(dir, name, count)
  fid = fopen(fullfile(dir, [name '.m']), 'w');
  fprintf(fid, 'function y = %s(x)\n  y = x.^1%s;\nend\n', name, repmat('.''', 1, count));
  fclose(fid);
end

function s = nest_structs(depth)
  s = 1;
  for k = 1:depth
    s = struct('a', s);
  end
end

function c = nest_cells(depth)
  c = 1;
  for k = 1:depth
    c = {c};
  end
end
