function test_msad_bad_inputs()
% Bad inputs and failing user code give clear errors (identifier, message, position) and Octave
% carries on: non-double, complex and sparse-logical x, a user error(...) with its identifier and
% message kept, a name that is not defined (Octave's error, and an Octave built-in msad lacks is
% msad:unsupported), a syntax error in a called file (msad:parse at its position), a cell or struct
% result with J, g or H in each mode, unbounded recursion. Recursion that ends, an error on a branch
% side that is not taken, and an empty x give the right values.
  expect_error(@() msad_eval(@sin, int32([1 2])), 'msad:badInput', 'int32');
  expect_error(@() msad_eval(@sin, 'ab'), 'msad:badInput', 'char');
  expect_error(@() msad_eval(@sin, [1 + 2i, 3]), 'msad:badInput', 'complex');
  expect_error(@() msad_eval(@sin, sparse([1 0 2])), 'msad:badInput', 'full(x)');
  expect_error(@() msad_eval(@raises_error, [1; 2]), 'model:negative', 'bad value 3');
  expect_error(@() msad_eval(@raises_error, [1; 2]), 'model:negative', 'raises_error.m:4:5');
  expect_error(@() msad_eval(@uses_undefined, 1), 'Octave:undefined-function', '''not_defined_anywhere'' undefined');
  expect_error(@() msad_eval(@uses_undefined, 1), 'Octave:undefined-function', 'uses_undefined.m:3:11');
  expect_error(@() msad_eval(@(x) x + no_such_name(x), 1), 'Octave:undefined-function', '''no_such_name'' undefined');
  expect_error(@() msad_eval('no_such_function_anywhere', 1), 'Octave:undefined-function', '''no_such_function_anywhere'' undefined');
  expect_error(@() msad_eval(@(x) besselh(0, x), 1), 'msad:unsupported', 'besselh');
  expect_error(@() msad_eval(@calls_broken, 1), 'msad:parse', 'broken_syntax.m:3:11');
  try
    msad_eval(@calls_broken, 1);
  catch err
    lines = strsplit(err.message, "\n");
    code = find(~cellfun(@isempty, strfind(lines, 'y = x + * 2;')));
    assert(numel(code) == 1 && strfind(lines{code + 1}, '^') == strfind(lines{code}, '*'), 'no caret under the error: %s', err.message);
  end
  for opts = {struct(), struct('mode', 'forward'), struct('mode', 'reverse'), struct('jacobian', 'full')}
    expect_error(@() two_outputs(@returns_cell, opts{1}), 'msad:badInput', 'must return a numeric array, not a cell');
    expect_error(@() three_outputs(@returns_cell, opts{1}), 'msad:badInput', 'must return a numeric array, not a cell');
    expect_error(@() two_outputs(@returns_struct, opts{1}), 'msad:badInput', 'must return a numeric array, not a struct');
    expect_error(@() three_outputs(@returns_struct, opts{1}), 'msad:badInput', 'must return a numeric array, not a struct');
  end
  expect_error(@() msad_eval(@(x) endless(x), 1), 'Octave:recursion-depth', 'max_recursion_depth exceeded');

  % The guard's error is on the side not taken: value and J as without it.
  [f, J] = msad_eval(@raises_error, [-1; 2]);
  assert(isequal(f, [-1; 2]) && isequal(full(J), eye(2)), 'raises_error on the quiet side');
  % Each recursive call sees a shorter x.
  x = [0.5; -2; 3; 1.25];
  [f, g] = msad_eval(@recursive_sum, x);
  assert(f == sum(x) && isequal(g(:), ones(4, 1)), 'recursive_sum');
  [f, J] = msad_eval(@(x) [sum(x); 1], zeros(0, 1));
  assert(isequal(f, [0; 1]) && isequal(size(J), [2 0]), 'empty x: J is numel(f) x 0');
end

function two_outputs(f, opts)
  [~, ~] = msad_eval(f, [1; 2], opts);
end

function three_outputs(f, opts)
  [~, ~, ~] = msad_eval(f, [1; 2], opts);
end
