function text = random_program(name, seed)
% RANDOM_PROGRAM  Source of a random function `y = NAME(x)` for the evaluation fuzzer.
%   text = random_program(name, seed) draws, from a small grammar of the Octave people write in
%   models (elementwise arithmetic and functions, reductions, ranges, masks and find, max/sort
%   selections, concatenation, products with constant matrices, if/else on values, for and while
%   loops, indexed assignment), a function of a column x of 6 elements that returns a column of 6.
%   Values are kept in domains where every function is smooth away from a measure-zero set, so
%   central differences are a valid oracle at random points. The same (name, seed) gives the same
%   text on every machine.
  state = rand_state(seed);
  [state, count] = pick(state, 3:7);
  lines = {sprintf('function y = %s(x)', name)};
  columns = {'x'};
  scalars = {};
  for k = 1:count
    [state, statement, kind, var] = random_statement(state, columns, scalars, k);
    lines{end + 1} = ['  ' statement];
    if strcmp(kind, 'column')
      columns{end + 1} = var;
    elseif strcmp(kind, 'scalar')
      scalars{end + 1} = var;
    end
  end
  [state, last] = column_expr(state, columns, scalars, 2);
  lines{end + 1} = sprintf('  y = %s;', last);
  lines{end + 1} = 'end';
  text = strjoin(lines, "\n");
end

function [state, statement, kind, var] = random_statement(state, columns, scalars, k)
  var = sprintf('t%d', k);
  [state, form] = pick(state, 1:9);
  switch form
    case {1, 2}
      [state, e] = column_expr(state, columns, scalars, 3);
      statement = sprintf('%s = %s;', var, e);
      kind = 'column';
    case 3
      [state, e] = scalar_expr(state, columns, scalars, 2);
      statement = sprintf('%s = %s;', var, e);
      kind = 'scalar';
    case 4
      % A mask of one column selects the elements another expression replaces.
      [state, c] = pick(state, columns);
      [state, e] = column_expr(state, columns, scalars, 2);
      [state, threshold] = pick(state, {'0', '0.3', '-0.2'});
      statement = sprintf('%s = %s; m = %s > %s; u = %s; %s(m) = %s(m) .* u(m);', var, c, c, threshold, e, var, var);
      kind = 'column';
    case 5
      % if/else on a value of x.
      [state, s] = scalar_expr(state, columns, scalars, 1);
      [state, a] = column_expr(state, columns, scalars, 2);
      [state, b] = column_expr(state, columns, scalars, 2);
      statement = sprintf('if %s > 0.1, %s = %s; else, %s = %s; end', s, var, a, var, b);
      kind = 'column';
    case 6
      % A scalar loop over the elements.
      [state, c] = pick(state, columns);
      [state, op] = pick(state, {'%s(k-1) * 0.5 + sin(%s(k))', '%s(k-1) + %s(k)^2 / 4', 'max(%s(k-1), %s(k))'});
      body = sprintf(op, var, c);
      statement = sprintf('%s = %s; for k = 2:numel(%s), %s(k) = %s; end', var, c, c, var, body);
      kind = 'column';
    case 7
      % A selection by the values: the largest element's position, or a sorted order.
      [state, c] = pick(state, columns);
      [state, which] = pick(state, 1:3);
      switch which
        case 1
          statement = sprintf('[~, r] = max(abs(%s)); %s = %s * %s(r);', c, var, c, c);
        case 2
          statement = sprintf('%s = sort(%s) .* (1:numel(%s))'';', var, c, c);
        otherwise
          statement = sprintf('r = find(%s > 0.2); %s = zeros(size(%s)); %s(r) = %s(r).^2;', c, var, c, var, c);
      end
      kind = 'column';
    case 8
      % A while loop on a value, bounded.
      [state, s] = scalar_expr(state, columns, scalars, 1);
      statement = sprintf('%s = abs(%s) + 1; n = 0; while %s > 0.5 && n < 20, %s = %s / 2; n = n + 1; end', ...
                          var, s, var, var, var);
      kind = 'scalar';
    otherwise
      % Element and range assignments into a copy.
      [state, c] = pick(state, columns);
      [state, e] = scalar_expr(state, columns, scalars, 1);
      statement = sprintf('%s = %s; %s(2:3) = %s(4:5) * 2; %s(end) = %s;', var, c, var, c, var, e);
      kind = 'column';
  end
end

function [state, e] = column_expr(state, columns, scalars, depth)
  [state, form] = pick(state, 1:(4 + 5 * (depth > 0)));
  switch form
    case {1, 2}
      [state, e] = pick(state, columns);
    case 3
      [state, e] = pick(state, {'(1:6)''', '[0.5; -1; 2; 0.25; 3; -0.75]', 'ones(6, 1)'});
    case 4
      [state, c] = pick(state, columns);
      [state, e] = pick(state, {sprintf('%s(end:-1:1)', c), sprintf('[%s(2:end); %s(1)]', c, c), ...
                                sprintf('(cumsum(%s) / 6)', c), sprintf('%s([1 3 5 2 4 6])', c)});
    case {5, 6}
      [state, a] = column_expr(state, columns, scalars, depth - 1);
      [state, b] = column_expr(state, columns, scalars, depth - 1);
      [state, op] = pick(state, {'+', '-', '.*'});
      e = sprintf('(%s %s %s)', a, op, b);
    case 7
      [state, a] = column_expr(state, columns, scalars, depth - 1);
      [state, f] = pick(state, {'sin(%s)', 'cos(%s)', 'tanh(%s)', 'exp(%s / 8)', 'sqrt(%s.^2 + 1)', ...
                                'log(%s.^2 + 1)', 'atan(%s)', '(1 ./ (%s.^2 + 1))', 'abs(%s)'});
      e = sprintf(f, a);
    case 8
      [state, a] = column_expr(state, columns, scalars, depth - 1);
      [state, s] = scalar_expr(state, columns, scalars, depth - 1);
      [state, op] = pick(state, {'*', '+', '-'});
      e = sprintf('(%s %s %s)', a, op, s);
    otherwise
      [state, a] = column_expr(state, columns, scalars, depth - 1);
      [state, m] = pick(state, {'(diag(1:6) / 3)', '(tril(ones(6)) / 6)', '(magic(6) / 40)', '(eye(6) - 0.1 * ones(6))'});
      e = sprintf('(%s * %s)', m, a);
  end
end

function [state, e] = scalar_expr(state, columns, scalars, depth)
  [state, form] = pick(state, 1:(3 + 3 * (depth > 0)));
  switch form
    case 1
      [state, c] = pick(state, columns);
      [state, k] = pick(state, 1:6);
      e = sprintf('%s(%d)', c, k);
    case 2
      if isempty(scalars)
        [state, e] = pick(state, {'0.7', '2', '-1.5'});
      else
        [state, e] = pick(state, scalars);
      end
    case 3
      [state, c] = pick(state, columns);
      [state, f] = pick(state, {'(sum(%s) / 6)', 'mean(%s)', 'max(%s)', 'min(%s)', '(norm(%s) / 3)', '(%s'' * %s / 10)'});
      e = strrep(f, '%s', c);
    case 4
      [state, a] = scalar_expr(state, columns, scalars, depth - 1);
      [state, b] = scalar_expr(state, columns, scalars, depth - 1);
      [state, op] = pick(state, {'+', '-', '*'});
      e = sprintf('(%s %s %s)', a, op, b);
    case 5
      [state, a] = scalar_expr(state, columns, scalars, depth - 1);
      [state, f] = pick(state, {'sin(%s)', 'exp(%s / 10)', 'sqrt(%s^2 + 1)', 'atan(%s)'});
      e = sprintf(f, a);
    otherwise
      [state, c] = pick(state, columns);
      e = sprintf('prod(%s(1:2))', c);
  end
end

function [state, item] = pick(state, items)
% A deterministic choice (Octave's rand streams differ between versions: the Park-Miller generator,
% exact in doubles, keeps the programs the same everywhere).
  state = mod(state * 16807, 2147483647);
  k = 1 + mod(floor(state / 64), numel(items));
  if iscell(items)
    item = items{k};
  else
    item = items(k);
  end
end

function state = rand_state(seed)
  state = 1 + mod(seed * 7919, 2147483646);
end
