function test_pattern_switch()
% Pattern-switch families through the MEX: the same function called in turn at points whose active
% elements, chosen indices or extra arguments differ. Every call's value equals Octave's and its J
% matches Octave's central differences of the same code, in every mode (the cache is kept between
% the calls of a family, so each call after the first meets what an earlier call learnt).
  modes = {struct(), struct('jacobian', 'sparse'), struct('jacobian', 'full'), ...
           struct('mode', 'forward'), struct('mode', 'reverse')};
  x8 = [1; -1; 1; -1; 2; -3; 4; 5];
  families = {
    {@switch_mask, {x8, -x8, zeros(8, 1), [0.5; 0.5; -0.5; 0.5; 0.5; 0.5; 0.5; 0.5]}, @(x) diag(2 * x .* (x > 0))}
    {@switch_find, {[1; 0; 1; 0; 1; 0; 1; 0], [0; 1; 0; 1; 0; 1; 0; 1], [1; 1; 1; 0; 0; 0; 0; 1]}, {}}
    {@switch_round, {(1:8)', [3; (2:8)'], [6.2; (2:8)']}, {}}
    {@switch_argmax, {[1; 2; 9; 4; 5; 6; 7; 8], [9; (2:8)'], [(1:7)'; -9]}, {}}
    {@switch_branch_subscript, {(1:8)', [-1; (2:8)'], (1:8)'}, {}}
    {@switch_sort, {(1:8)', (8:-1:1)', [3; 1; 4; 1.5; 5; 9; 2; 6]}, {}}
    {@switch_scalar_loop, {(1:8)', [4.2; (2:8)'], [0.1; (2:8)']}, {}}
    {@switch_elseif, {[2; 1; 2; 3; 4], [0.5; 1; 2; 3; 4], [-1; 1; 2; 3; 4], [2; 1; 2; 3; 4]}, {}}
    {@switch_short_circuit, {[1; 1; 2; 3; 1; 2], [1; -1; 2; 3; -1; 2], [-1; 2; 2; 3; 0.2; 2], [-1; -1; 2; 3; 1; 2], [1; 1; 2; 3; -1; 2]}, {}}
    {@switch_accumarray, {[0.2; 1.1; 2.3; 0.4], [1.2; 0.1; 0.3; 2.4], [3.2; 3.1; 0.3; 1.4]}, {}}
    {@switch_cell_assign, {[1.2; 0.5; 3], [2.1; 0.5; 3], [3.3; 0.5; 3], [1.1; -0.5; 2]}, {}}
    {@switch_elseif_loop, {[2; 0.5; -1; 2; 0.5; -1], [0.5; -1; 2; 0.5; -1; 2], [-1; 2; 0.5; -1; 2; 0.5], 2 * ones(6, 1), -ones(6, 1)}, {}}
  };
  withExtra = {
    {@switch_extra_mask, (1:6)', {[1; -1; 1; -1; 1; -1], [-1; 1; -1; 1; -1; 1], ones(6, 1)}}
    {@switch_loop_count, (1:6)', {2, 5, 0, 3}}
    {@switch_active_set, [0.5; -1; 2; -3; 0.25; 1], {zeros(6, 1), [1; -2; 3; -4; 1; 2], -5 * ones(6, 1)}}
    {@switch_struct_mask, (1:4)', {struct('mask', logical([1; 0; 1; 0])), struct('mask', logical([0; 1; 0; 1])), struct('mask', false(4, 1))}}
    {@switch_reshape, (1:6)', {2, 3, 2, 1}}
  };
  for m = 1:numel(modes)
    opts = modes{m};
    label = mode_label(opts);
    for k = 1:numel(families)
      [fun, points, exact] = families{k}{:};
      clear msad_eval
      for p = 1:numel(points)
        check_call(fun, points{p}, opts, {}, sprintf('%s %s call %d', func2str(fun), label, p), exact);
      end
    end
    for k = 1:numel(withExtra)
      [fun, x, extras] = withExtra{k}{:};
      clear msad_eval
      for p = 1:numel(extras)
        check_call(fun, x, opts, extras(p), sprintf('%s %s call %d', func2str(fun), label, p));
      end
    end
  end
  % A scalar objective: gradient and Hessian at points whose positive set differs.
  clear msad_eval
  for x = {[1; -2; 3; -4; 5; -6; 7; -8], -[1; -2; 3; -4; 5; -6; 7; -8], -ones(8, 1), ones(8, 1)}
    [f, g, H] = msad_eval(@switch_objective, x{1});
    check_value(f, switch_objective(x{1}), 1e-14, 'switch_objective value');
    check_jacobian(g', fd_jacobian(@switch_objective, x{1}), 1e-6, 'switch_objective gradient');
    gradient = @(y) nth_output(2, @msad_eval, @switch_objective, y, struct('sparsity', 'none'));
    check_jacobian(H, fd_jacobian(gradient, x{1}), 1e-6, 'switch_objective Hessian');
  end
end

function check_call(fun, x, opts, extra, label, exact)
% Against the exact Jacobian where one is given (central differences are wrong at a kink, such as
% a mask's edge at x = 0), central differences otherwise.
  [f, J] = msad_eval(fun, x, opts, extra{:});
  check_value(f, fun(x, extra{:}), 0, [label ' value']);
  if nargin > 5 && ~isempty(exact)
    check_jacobian(J, exact(x), 1e-15, [label ' Jacobian']);
  else
    check_jacobian(J, fd_jacobian(@(y) fun(y, extra{:}), x), 1e-6, [label ' Jacobian']);
  end
end

function out = nth_output(k, f, varargin)
  outputs = cell(1, k);
  [outputs{:}] = f(varargin{:});
  out = outputs{k};
end

function label = mode_label(opts)
  names = fieldnames(opts);
  if isempty(names)
    label = 'auto';
  else
    label = sprintf('%s=%s', names{1}, opts.(names{1}));
  end
end
