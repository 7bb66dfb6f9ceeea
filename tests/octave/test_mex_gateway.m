function test_mex_gateway()
% The MEX gateway on its own (no engine needed): error identifiers, panic containment, argument
% conversion round trips and option parsing (through the MSAD_TEST_HOOK=echo test hook), help.
  expect_error(@() msad_eval(@sin, {1}), 'msad:badInput', 'x is the argument to differentiate');
  expect_error(@() msad_eval(@sin, 1, struct('jacobain', 'full')), 'msad:badInput', ...
               'valid options: mode, jacobian, sparsity, seed, wrt, threads, verbose');
  expect_error(@() msad_eval(@sin, int32(1)), 'msad:badInput', 'int32');
  expect_error(@() msad_eval(@sin, 1 + 2i), 'msad:badInput', 'complex');
  expect_error(@() msad_eval(@sin, 1, [], sparse(true)), 'msad:badInput', 'argument 4 is a sparse logical');
  expect_error(@() msad_eval(@sin, 1, [], {1, single(2)}), 'msad:badInput', 'argument 4{2}');
  expect_error(@() msad_eval(@sin), 'msad:badInput', 'msad_eval(fun, x');

  check_panic_is_contained();
  check_round_trip();
  check_options();

  % Unloading frees the engine; the next call loads it again.
  clear msad_eval
  expect_error(@() msad_eval(@sin, {1}), 'msad:badInput', 'x is the argument');

  usage = evalc('help msad_eval');
  assert(~isempty(strfind(usage, 'msad_eval(FUN, X, OPTS, P1, P2, ...)')), 'help msad_eval: no usage');
end

function expect_error(call, identifier, message_part)
  try
    call();
  catch err
    assert(strcmp(err.identifier, identifier), 'expected %s, got [%s] %s', identifier, err.identifier, err.message);
    assert(~isempty(strfind(err.message, message_part)), 'message "%s" lacks "%s"', err.message, message_part);
    last = lasterror();
    assert(strcmp(last.identifier, identifier), 'lasterror has identifier %s', last.identifier);
    return;
  end
  error('test:noError', 'expected an error %s', identifier);
end

function restore = test_hook(mode)
  setenv('MSAD_TEST_HOOK', mode);
  restore = onCleanup(@() setenv('MSAD_TEST_HOOK', ''));
end

function check_panic_is_contained()
  restore = test_hook('panic');
  expect_error(@() msad_eval(@sin, 1), 'msad:internal', 'MSAD_TEST_HOOK=panic');
  expect_error(@() msad_eval(@sin, 1), 'msad:internal', 'MSAD_TEST_HOOK=panic');
  clear restore
  % The engine lock the panic poisoned is usable again.
  restore = test_hook('echo');
  request = msad_eval(@sin, 1);
  assert(strcmp(request.function, 'sin') && isempty(request.source), 'a built-in has no source');
end

function check_round_trip()
  restore = test_hook('echo');
  p = 3;
  q = {1, 'text', struct('a', {1, [2 3]}), {}};
  f = @(x) x + p * q{1};
  args = {[1 2; 3 4], sparse([1 0; 0 2]), true(2, 3), ['ab'; 'cd'], q, @cos, zeros(2, 0, 3), ...
          struct('s', 'x', 'v', {{1, 2}})};
  request = msad_eval(f, args{1}, [], args{2:end});
  assert(strcmp(request.function, func2str(f)), 'anonymous text: %s', request.function);
  assert(isequal(request.captured, struct('p', p, 'q', {q})), 'captured variables differ');
  assert(numel(request.args) == numel(args));
  for k = 1:numel(args)
    sent = args{k};
    back = request.args{k};
    assert(strcmp(class(back), class(sent)) && isequal(size(back), size(sent)), 'argument %d: %s', k, class(back));
    assert(issparse(back) == issparse(sent), 'argument %d: sparsity lost', k);
    if isa(sent, 'function_handle')
      assert(strcmp(func2str(back), func2str(sent)), 'argument %d: handle differs', k);
    else
      assert(isequal(back, sent), 'argument %d differs', k);
    end
  end
  assert(strcmp(msad_eval('sin', 1).function, 'sin'), 'a function name is a named function');
  request = msad_eval(@test_mex_gateway, 1);
  assert(strcmp(request.source, [mfilename('fullpath') '.m']), 'which found %s', request.source);
end

function check_options()
  restore = test_hook('echo');
  opts = struct('jacobian', 'Sparse', 'wrt', 2, 'threads', 3, 'verbose', true);
  [request, J] = msad_eval(@plus, 1, opts, 2);
  assert(isempty(J));
  assert(strcmp(request.jacobian, 'sparse') && request.wrt == 2 && request.threads == 3);
  assert(request.verbose && request.nargout == 2);
  request = msad_eval(@plus, 1, struct('wrt', [], 'threads', []));
  assert(request.wrt == 1 && isempty(request.threads) && ~request.verbose && request.nargout == 1);
  expect_error(@() msad_eval(@plus, 1, struct('wrt', 3), 2), 'msad:badInput', 'opts.wrt = 3');
  expect_error(@() msad_eval(@plus, 1, struct('wrt', 2), 'p'), 'msad:badInput', 'argument 4 is the argument to differentiate');
  expect_error(@() msad_eval(@plus, 1, struct('jacobian', 'dense')), 'msad:badInput', 'opts.jacobian');
  expect_error(@() msad_eval(@plus, 1, 'full'), 'msad:badInput', '''full'' is no option name');
  expect_error(@() msad_eval(@plus, 1, {1}), 'msad:badInput', 'opts must be a struct');
end
