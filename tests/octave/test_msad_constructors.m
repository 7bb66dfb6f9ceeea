function test_msad_constructors()
% Constructors with a trailing class name or 'like', prototype: the class argument is never read as a
% size, and the result's size, class, sparsity and values are Octave's; an x-dependent prototype gives
% a constant array (J as by central differences). Octave's errors stay errors. eps(x) is the spacing.
  calls = {'zeros(2, ''like'', 2)', 'zeros(2, 3, ''like'', int8(2))', 'zeros(2, ''like'', 1i)', ...
           'zeros(2, ''like'', sparse(1))', 'zeros(2, ''like'', true)', 'ones(2, ''like'', sparse(1))', ...
           'ones(2, ''like'', int16(1))', 'ones(int8(2), ''like'', 1)', 'zeros(''like'', 2)', ...
           'zeros([2 3], ''like'', 2)', 'zeros(2, ''int32'')', 'zeros(2, ''logical'')', 'zeros(2, ''Int32'')', ...
           'eye(2, ''int32'')', 'eye([2 3], ''uint8'')', 'eye(2, ''logical'')', 'Inf(2, ''like'', 2)', ...
           'Inf(2, ''like'', 1i)', 'NaN(2, ''like'', sparse(1))', 'NaN(''like'', 1)', 'pi(2, ''double'')', ...
           'eps(2)', 'eps([1 2 0 Inf -3e-300])', 'eps(2, 3)', 'eps(''double'')', 'true(2, ''like'', true)', ...
           'true(2, ''logical'')', 'false(''like'', true)', 'true', 'false(2, 3)', 'zeros(3, 1, ''like'', 2)'};
  for k = 1:numel(calls)
    expected = eval(calls{k});
    got = eval(sprintf('msad_eval(@(x) %s, 1)', calls{k}));
    assert(isequal(size(got), size(expected)) && strcmp(class(got), class(expected)) ...
           && issparse(got) == issparse(expected) && isequaln(got, expected), ...
           '%s: %s %s, Octave %s %s', calls{k}, class(got), mat2str(size(got)), class(expected), mat2str(size(expected)));
  end
  errors = {'zeros(2, ''like'', ''a'')', 'zeros(2, ''like'')', 'eye(2, ''like'', 2)', 'Inf(2, ''int32'')', ...
            'NaN(2, ''like'', int8(1))', 'pi(2, ''like'', 2)', 'true(2, ''like'', 2)', 'true(2, ''double'')', ...
            'zeros(2, 3, 2, ''like'', sparse(1))', 'Inf(2, ''logical'')', 'zeros(2, ''char'')'};
  for k = 1:numel(errors)
    try
      eval(errors{k});
      error('test:octaveAccepts', 'Octave accepts %s', errors{k});
    catch err
      assert(~strcmp(err.identifier, 'test:octaveAccepts'), err.message);
    end
    try
      eval(sprintf('msad_eval(@(x) %s, 1);', errors{k}));
      error('test:noError', 'msad accepts %s', errors{k});
    catch err
      assert(strcmp(err.identifier, 'msad:runtime'), '%s: %s %s', errors{k}, err.identifier, err.message);
    end
  end

  x = [0.5; -1.25; 2];
  [f, J] = msad_eval(@like_prototype, x);
  check_value(f, like_prototype(x), 0, 'like_prototype value');
  check_jacobian(J, fd_jacobian(@like_prototype, x), 1e-8, 'like_prototype Jacobian');
  [f, J] = msad_eval(@(x) zeros(3, 1, 'like', x) + x, x);
  check_value(f, x, 0, 'zeros like x');
  check_jacobian(J, eye(3), 0, 'zeros like x Jacobian');
  [f, J] = msad_eval(@(x) x .* double(eye(3, 'int32')(:, 2)) + true(3, 1, 'like', x > 0), x);
  check_value(f, [1; x(2) + 1; 1], 0, 'eye of a class and true like a mask');
  check_jacobian(J, diag([0 1 0]), 0, 'eye of a class Jacobian');
end
