function test_msad_cutest_layout()
% CUTEst-style objectives in the element-function layout (issue #20): the problem dispatches to its
% own element functions through feval of its handle, with varargin/varargout and the value in a
% cell. Forward, reverse and Hessian modes against central differences; the layout of the issue's
% report (a zero gradient in reverse mode, which was silent; forward mode's sparsity detection did
% not finish) gives 4 (x - 1) in each mode.
  x = [2; 3; 4];
  for mode = {'reverse', 'forward'}
    [f, g] = msad_eval(@(x) cutest_dispatch('objf', x), x, struct('mode', mode{1}));
    assert(f == 28 && isequal(g, 4 * (x - 1)), sprintf('cutest_dispatch %s gradient: %s', mode{1}, mat2str(g')));
  end
  [~, g, H] = msad_eval(@(x) cutest_dispatch('objf', x), x);
  assert(isequal(g, 4 * (x - 1)) && isequal(full(H), 4 * eye(3)), 'cutest_dispatch Hessian');

  n = 12;
  start.cutest_rosenbrock = repmat([-1.2; 1], n / 2, 1);
  start.cutest_broyden = -ones(n, 1);
  start.cutest_wood = repmat([-3; -1; -3; -1], n / 4, 1);
  start.cutest_arrowhead = ones(n, 1);
  names = fieldnames(start);
  for k = 1:numel(names)
    name = names{k};
    objective = str2func(sprintf('@(x) %s(''objf'', x)', name));
    for x = [start.(name), 0.1 + sin((1:n)')]
      [g_fd, f_ref] = fd_jacobian(objective, x);
      for mode = {'forward', 'reverse'}
        [f, g] = msad_eval(objective, x, struct('mode', mode{1}));
        check_value(f, f_ref, 1e-15, sprintf('%s value (%s)', name, mode{1}));
        check_jacobian(g', g_fd, 1e-6, sprintf('%s gradient (%s)', name, mode{1}));
      end
      [~, g, H] = msad_eval(objective, x);
      H_fd = fd_jacobian(@(y) forward_gradient(objective, y), x);
      check_jacobian(g', g_fd, 1e-6, [name ' gradient (Hessian call)']);
      check_jacobian(H, H_fd, 1e-6, [name ' Hessian']);
      assert(isequal(H, H'), [name ': H is symmetric']);
    end
  end
end

function g = forward_gradient(objective, x)
  [~, g] = msad_eval(objective, x, struct('mode', 'forward'));
end
