function test_primitive_rules()
% TEST_PRIMITIVE_RULES  Every differentiable primitive's forward rule, through msad_eval, against the
% complex step (1e-12 relative) and central differences (1e-7 relative), on random inputs of several
% shapes (scalar, row, column, matrix, empty where meaningful); msad's value must equal Octave's.
% Functions the complex step cannot see through (abs, max, sort, norm, dot, ', least squares, interp1)
% are compared with a complex-safe reference formulation of the same function. Prints one line per
% primitive and "covered N differentiable primitives"; throws if any case fails.
  rand('state', 42);
  cases = [elementwise_cases(), matrix_cases(), reduction_cases(), selection_cases(), ...
           interpolation_cases(), construction_cases(), rearrangement_cases(), grid_cases(), ...
           output_cases()];
  names = unique({cases.name});
  failures = {};
  for k = 1:numel(names)
    here = cases(strcmp({cases.name}, names{k}));
    worst = [0 0 0];
    problems = {};
    for c = here
      [errors, problem] = check_case(c);
      worst = max(worst, errors);
      if ~isempty(problem)
        problems{end+1} = problem;
      end
    end
    status = 'ok  ';
    if ~isempty(problems)
      status = 'FAIL';
      failures = [failures, cellfun(@(p) [names{k} ': ' p], problems, 'UniformOutput', false)];
    end
    printf('  %s %-10s %3d inputs; max rel. error: value %.1e, vs complex step %.1e, vs central differences %.1e\n', ...
           status, names{k}, numel(here), worst);
    if ~isempty(problems)
      printf('       %s\n', problems{:});
    end
  end
  printf('  covered %d differentiable primitives\n', numel(names));
  if ~isempty(failures)
    error('msad:test', '%d failing cases:\n%s', numel(failures), strjoin(failures, '\n'));
  end
end

function [errors, problem] = check_case(c)
  % errors = [value error, error vs complex step, error vs central differences].
  errors = [Inf Inf Inf];
  problem = '';
  name = func2str(c.f);
  if name(1) ~= '@'
    % msad_eval differentiates code: a builtin is called from an anonymous function.
    c.f = str2func(['@(x) ' name '(x)']);
  end
  % Cases share function text with other captured values, which msad's cache does not tell apart yet.
  clear msad_eval;
  try
    [f, J] = msad_eval(c.f, c.x);
  catch err
    problem = sprintf('%s on %s: %s', func2str(c.f), size_text(c.x), err.message);
    return;
  end
  expected = c.f(c.x);
  J = full(J);
  if ~isequal(size(f), size(expected)) || numel(J) ~= numel(f) * numel(c.x)
    problem = sprintf('%s on %s: value %s, Jacobian %s', func2str(c.f), size_text(c.x), size_text(f), size_text(J));
    return;
  end
  J = reshape(J, numel(f), numel(c.x));
  value_error = Inf;
  if isequal(isnan(f), isnan(expected))
    value_error = relative_error(f(:), expected(:));
  end
  errors = [value_error, relative_error(J, cs_jacobian(c.ref, c.x)), relative_error(J, fd_jacobian(c.f, c.x))];
  if any(errors > [1e-13 1e-12 1e-7])
    problem = sprintf('%s on %s: errors %.1e %.1e %.1e', func2str(c.f), size_text(c.x), errors);
  end
end

function e = relative_error(a, b)
  % Max |a - b| relative to max(1, max |b|) where the reference b is a number (differences of a NaN
  % value are NaN); a NaN in a alone is infinitely wrong.
  known = ~isnan(b);
  if ~isequal(size(a), size(b)) || any(isnan(a(known)))
    e = Inf;
  else
    e = max([0; abs(a(known)(:) - b(known)(:))]) / max([1; abs(b(known)(:))]);
  end
end

function t = size_text(x)
  t = sprintf('%dx', size(x));
  t = t(1:end-1);
end

% ---- case construction ----

function c = rule(name, f, ref, xs)
  % One case per input in the cell xs; ref is the complex-safe reference ([]: f itself).
  if isempty(ref)
    ref = f;
  end
  c = struct('name', name, 'f', {f}, 'ref', {ref}, 'x', xs);
end

function xs = shaped(lo, hi, sizes)
  % Random inputs in [lo, hi] of each size (default: scalar, row, column, matrix, empty).
  if nargin < 3
    sizes = {[1 1], [1 5], [4 1], [3 4], [0 3]};
  end
  xs = cellfun(@(s) lo + (hi - lo) * rand(s), sizes, 'UniformOutput', false);
end

function f = lambda(body, varargin)
  % @(x) body, capturing the named values given as name, value pairs. The primitive's name is written
  % in the body: msad cannot call a captured function handle.
  for k = 1:2:numel(varargin)
    eval([varargin{k} ' = varargin{k + 1};']);
  end
  f = eval(['@(x) ' body]);
end

function c = binary(name, ref, range_a, range_b)
  % name(a, b) with both operands packed in x (equal shapes, implicit expansion, scalar and matrix),
  % and with either operand constant.
  op = str2func(name);
  if isempty(ref)
    ref = op;
  end
  pairs = {{[1 1], [1 1]}, {[1 5], [1 5]}, {[4 1], [4 1]}, {[3 4], [3 4]}, {[3 1], [1 4]}, ...
           {[1 1], [3 4]}, {[3 4], [1 1]}, {[0 3], [0 3]}};
  c = [];
  for k = 1:numel(pairs)
    [sa, sb] = pairs{k}{:};
    a = range_a(1) + diff(range_a) * rand(sa);
    b = range_b(1) + diff(range_b) * rand(sb);
    na = numel(a);
    packed = lambda([name '(reshape(x(1:na), sa), reshape(x(na+1:end), sb))'], 'na', na, 'sa', sa, 'sb', sb);
    c = [c, rule(name, packed, @(x) ref(reshape(x(1:na), sa), reshape(x(na+1:end), sb)), {[a(:); b(:)]})];
    if k == 4
      c = [c, rule(name, lambda([name '(x, b)'], 'b', b), @(x) ref(x, b), {a}), ...
           rule(name, lambda([name '(a, x)'], 'a', a), @(x) ref(a, x), {b})];
    end
  end
end

function A = well_conditioned(n)
  A = rand(n) + n * eye(n);
end

% ---- the primitives ----

function c = elementwise_cases()
  unary = {'uminus', @(x) -x, [-1 1]; 'uplus', @(x) +x, [-1 1]; 'sin', @sin, [-2 2]; 'cos', @cos, [-2 2];
           'tan', @tan, [-1 1]; 'exp', @exp, [-1 1]; 'expm1', @expm1, [-1 1]; 'log', @log, [0.5 2];
           'log2', @log2, [0.5 2]; 'log10', @log10, [0.5 2]; 'log1p', @log1p, [0 1]; 'sqrt', @sqrt, [0.5 2];
           'asin', @asin, [-0.8 0.8]; 'acos', @acos, [-0.8 0.8]; 'atan', @atan, [-2 2]; 'sinh', @sinh, [-1 1];
           'cosh', @cosh, [-1 1]; 'tanh', @tanh, [-1 1]; 'asinh', @asinh, [-2 2]; 'acosh', @acosh, [1.5 3];
           'atanh', @atanh, [-0.8 0.8]};
  c = [];
  for k = 1:rows(unary)
    c = [c, rule(unary{k, 1}, unary{k, 2}, [], shaped(unary{k, 3}(1), unary{k, 3}(2)))];
  end
  % abs: derivative sign(x), 0 at 0 (documented convention).
  c = [c, rule('abs', @abs, @(x) x .* sign(real(x)), shaped(-1, 1))];
  % mod and rem: derivative 1 in a and -floor(a./b) (mod) or -fix(a./b) (rem) in b, away from the jumps.
  c = [c, binary('mod', @(a, b) a - floor(real(a) ./ real(b)) .* b, [-3 3], [0.5 2]), ...
       binary('mod', @(a, b) a - floor(real(a) ./ real(b)) .* b, [-3 3], [-2 -0.5]), ...
       binary('rem', @(a, b) a - fix(real(a) ./ real(b)) .* b, [-3 3], [0.5 2]), ...
       binary('rem', @(a, b) a - fix(real(a) ./ real(b)) .* b, [-3 3], [-2 -0.5])];
  c = [c, binary('plus', [], [-1 1], [-1 1]), binary('minus', [], [-1 1], [-1 1]), ...
       binary('times', [], [-1 1], [-1 1]), binary('rdivide', [], [-1 1], [0.5 2]), ...
       binary('ldivide', [], [0.5 2], [-1 1]), binary('power', [], [0.5 2], [-2 2]), ...
       binary('atan2', @(a, b) atan(a ./ b), [-1 1], [0.5 2]), ...
       binary('hypot', @(a, b) sqrt(a.^2 + b.^2), [0.5 2], [-2 -0.5])];
end

function c = matrix_cases()
  A = rand(3, 4); B = rand(4, 2); S = well_conditioned(3); T = rand(5, 3); W = rand(3, 5);
  c = [rule('mtimes', @(x) reshape(x(1:12), 3, 4) * reshape(x(13:end), 4, 2), [], {[A(:); B(:)]}), ...
       rule('mtimes', @(x) A * x, [], {B}), rule('mtimes', @(x) x * B, [], {A}), ...
       rule('mtimes', @(x) x(1:4) * x(5:8).', [], {rand(8, 1)}), rule('mtimes', @(x) 2.5 * x, [], {A}), ...
       rule('transpose', @(x) x.', [], shaped(-1, 1)), rule('ctranspose', @(x) x', @(x) x.', shaped(-1, 1))];
  % Square systems factor by LU; non-square ones are least squares (tall) or minimum norm (wide), whose
  % complex-safe references are the normal equations.
  c = [c, rule('mldivide', @(x) reshape(x(1:9), 3, 3) \ x(10:end), [], {[S(:); rand(3, 1)]}), ...
       rule('mldivide', @(x) S \ x, [], {rand(3, 1), rand(3, 2)}), ...
       rule('mldivide', @(x) x \ [1; 2; 3], [], {S}), rule('mldivide', @(x) 2 \ x, [], {A}), ...
       rule('mldivide', @(x) reshape(x(1:15), 5, 3) \ x(16:end), ...
            @(x) tall_solve(reshape(x(1:15), 5, 3), x(16:end)), {[T(:); rand(5, 1)]}), ...
       rule('mldivide', @(x) reshape(x(1:15), 3, 5) \ x(16:end), ...
            @(x) wide_solve(reshape(x(1:15), 3, 5), x(16:end)), {[W(:); rand(3, 1)]})];
  c = [c, rule('mrdivide', @(x) x(10:end).' / reshape(x(1:9), 3, 3), [], {[S(:); rand(3, 1)]}), ...
       rule('mrdivide', @(x) x / S, [], {rand(2, 3)}), rule('mrdivide', @(x) x / 4, [], {A}), ...
       rule('mrdivide', @(x) x(16:end).' / reshape(x(1:15), 3, 5), ...
            @(x) tall_solve(reshape(x(1:15), 3, 5).', x(16:end)).', {[W(:); rand(5, 1)]})];
  c = [c, rule('inverse', @inverse, @inv, {rand(1, 1) + 1, well_conditioned(3)})];
  c = [c, rule('inv', @inv, [], {rand(1, 1) + 1, well_conditioned(3), well_conditioned(5)}), ...
       rule('det', @det, [], {rand(1, 1), rand(3), rand(5), zeros(0, 0)})];
  for p = [0 1 2 3 -1 -2]
    c = [c, rule('mpower', @(x) x^p, [], {well_conditioned(3)})];
  end
  c = [c, rule('mpower', @(x) x^2.5, [], {rand(1, 1) + 0.5})];
  c = [c, rule('trace', @trace, [], {rand(3), rand(2, 3), rand(1, 4), rand(4, 1), rand(1, 1), zeros(0, 0)}), ...
       rule('diag', @diag, [], {rand(4, 1), rand(1, 3), rand(3, 4)}), ...
       rule('diag', @(x) diag(x, 1), [], {rand(3, 1), rand(3)}), rule('diag', @(x) diag(x, -1), [], {rand(3)}), ...
       rule('kron', @(x) kron(reshape(x(1:4), 2, 2), reshape(x(5:end), 2, 3)), [], {rand(10, 1)}), ...
       rule('kron', @(x) kron(eye(2), x), [], {rand(2, 3)}), rule('kron', @(x) kron(x, [1 2]), [], {rand(3, 1)})];
  for k = [0 1 -1]
    c = [c, rule('tril', @(x) tril(x, k), [], shaped(-1, 1)), rule('triu', @(x) triu(x, k), [], shaped(-1, 1))];
  end
end

function x = tall_solve(A, b)
  x = (A.' * A) \ (A.' * b);
end

function x = wide_solve(A, b)
  x = A.' * ((A * A.') \ b);
end

function c = reduction_cases()
  c = [];
  for name = {'sum', 'mean', 'cumsum', 'prod', 'cumprod'}
    xs = shaped(-1, 1);
    if strcmp(name{1}, 'mean')
      % Octave 7's mean.m returns 0x1 for a 0x3 input; msad returns sum's 1x3 (NaN).
      xs = xs(1:4);
    end
    c = [c, rule(name{1}, str2func(name{1}), [], xs), ...
         rule(name{1}, lambda([name{1} '(x, 1)']), [], shaped(-1, 1)), ...
         rule(name{1}, lambda([name{1} '(x, 2)']), [], shaped(-1, 1))];
  end
  % Products with zero factors are exact.
  c = [c, rule('prod', @prod, [], {[0 2 3 4], [0 2 0 4]}), rule('cumprod', @cumprod, [], {[1 0 3 4]})];
  c = [c, rule('dot', @(x) dot(x(1:4), x(5:8)), @(x) sum(x(1:4) .* x(5:8)), {rand(8, 1)}), ...
       rule('dot', @(x) dot(x(1:3).', x(4:6)), @(x) sum(x(1:3) .* x(4:6)), {rand(6, 1)}), ...
       rule('dot', @(x) dot(reshape(x(1:12), 3, 4), reshape(x(13:end), 3, 4)), ...
            @(x) sum(reshape(x(1:12), 3, 4) .* reshape(x(13:end), 3, 4)), {rand(24, 1)}), ...
       rule('dot', @(x) dot(x, x, 2), @(x) sum(x .* x, 2), {rand(3, 4)})];
  for order = [1 2 5]
    c = [c, rule('diff', @(x) diff(x, order), [], shaped(-1, 1)), ...
         rule('diff', @(x) diff(x, order, 2), [], shaped(-1, 1))];
  end
  c = [c, rule('diff', @diff, [], shaped(-1, 1))];
end

function y = pick(x, dim, choose)
  % The elements of x at the positions that choose(real(x), dim) returns as its second output (max,
  % min, sort along dim): the selection or permutation by real parts, complex-safe.
  [~, i] = choose(real(x), dim);
  if dim == 1
    y = x(i + (0:columns(x) - 1) * rows(x));
  else
    y = x((1:rows(x)).' + (i - 1) * rows(x));
  end
end

function c = selection_cases()
  c = [];
  for name = {'max', 'min'}
    f = str2func(name{1});
    extreme = @(v, dim) f(v, [], dim);
    larger = strcmp(name{1}, 'max');
    c = [c, rule(name{1}, f, @(x) pick(x, first_dim(x), extreme), shaped(-1, 1)), ...
         rule(name{1}, lambda([name{1} '(x, [], 1)']), @(x) pick(x, 1, extreme), shaped(-1, 1)), ...
         rule(name{1}, lambda([name{1} '(x, [], 2)']), @(x) pick(x, 2, extreme), shaped(-1, 1)), ...
         binary(name{1}, @(a, b) elementwise_pick(a, b, larger), [-1 1], [-1 1]), ...
         rule(name{1}, lambda([name{1} '(x, 0.25)']), @(x) elementwise_pick(x, 0.25, larger), shaped(-1, 1))];
  end
  for mode = {'ascend', 'descend'}
    ordered = @(v, dim) sort(v, dim, mode{1});
    c = [c, rule('sort', lambda('sort(x, mode)', 'mode', mode{1}), @(x) pick(x, first_dim(x), ordered), shaped(-1, 1)), ...
         rule('sort', lambda('sort(x, 2, mode)', 'mode', mode{1}), @(x) pick(x, 2, ordered), shaped(-1, 1))];
  end
  absolute = @(v) v .* sign(real(v));
  for p = {2, 1, Inf, -Inf, 3, 'fro'}
    c = [c, rule('norm', lambda('norm(x, p)', 'p', p{1}), @(x) vector_norm(absolute(x(:)), p{1}), ...
                 shaped(-1, 1, {[1 1], [1 5], [4 1], [1 0]}))];
  end
  c = [c, rule('norm', @norm, @(x) vector_norm(absolute(x(:)), 2), {rand(5, 1)}), ...
       rule('norm', @norm, @largest_singular_value, {rand(3, 4), rand(4, 2)}), ...
       rule('norm', @(x) norm(x, 1), @(x) sum(absolute(pick_column(x))), {rand(3, 4) - 0.5}), ...
       rule('norm', @(x) norm(x, Inf), @(x) sum(absolute(pick_column(x.'))), {rand(3, 4) - 0.5}), ...
       rule('norm', @(x) norm(x, 'fro'), @(x) sqrt(sum(x(:).^2)), {rand(3, 4), zeros(0, 3)})];
end

function d = first_dim(x)
  d = find(size(x) ~= 1, 1);
  if isempty(d)
    d = 1;
  end
end

function y = elementwise_pick(a, b, larger)
  % max/min of two arrays choosing by real part; ties go to a.
  if larger
    second = real(b) > real(a);
  else
    second = real(b) < real(a);
  end
  y = a .* ~second + b .* second;
end

function n = vector_norm(a, p)
  % p-norm of nonnegative a (complex-safe).
  if isempty(a)
    n = 0;
  elseif ischar(p) || p == 2
    n = sqrt(sum(a.^2));
  elseif p == Inf
    [~, i] = max(real(a));
    n = a(i);
  elseif p == -Inf
    [~, i] = min(real(a));
    n = a(i);
  else
    n = sum(a.^p)^(1 / p);
  end
end

function v = pick_column(x)
  % The column of x with the largest absolute sum (by real part).
  [~, j] = max(sum(abs(real(x)), 1));
  v = x(:, j);
end

function s = largest_singular_value(x)
  e = eig(x.' * x);
  [~, i] = max(real(e));
  s = sqrt(e(i));
end

function yi = linear_reference(x, y, xi)
  % Linear interpolation by the formula, intervals chosen by real parts (complex-safe).
  j = min(max(lookup(real(x), real(xi)), 1), numel(x) - 1);
  at = @(v, k) reshape(v(k), size(xi));
  yi = at(y, j) + (at(y, j + 1) - at(y, j)) ./ (at(x, j + 1) - at(x, j)) .* (xi - at(x, j));
end

function c = interpolation_cases()
  x = [0 0.7 1.5 2.1 3];
  y = rand(5, 1);
  % Queries on a sample point (1.5) only where the result is smooth in the differentiated argument.
  xi = [0.2 1.1 2.9 1.6];
  c = [rule('interp1', @(v) interp1(x, v, [xi 1.5]), @(v) linear_reference(x, v, [xi 1.5]), {y}), ...
       rule('interp1', @(v) interp1(x, y, v), @(v) linear_reference(x, y, v), {xi, xi.', 0.4, reshape([xi 2 2.5], 2, 3)}), ...
       rule('interp1', @(v) interp1(v, y, xi), @(v) linear_reference(v, y, xi), {x}), ...
       rule('interp1', @(v) interp1(x, v(1:5), v(6:end), 'linear'), ...
            @(v) linear_reference(x, v(1:5), v(6:end)), {[y; xi.']}), ...
       rule('interp1', @(v) interp1(x, v, [-1 xi 4], 'linear', 'extrap'), ...
            @(v) linear_reference(x, v, [-1 xi 4]), {y}), ...
       rule('interp1', @(v) interp1(x, v, [-1 xi 4]), @(v) [NA linear_reference(x, v, xi) NA], {y}), ...
       rule('interp1', @(v) interp1(v, xi + 1), @(v) linear_reference(1:5, v, xi + 1), {y})];
  p = rand(1, 4);
  c = [c, rule('polyval', @(v) polyval(v, [0.5 -1 2]), [], {p, p.', rand(1, 1)}), ...
       rule('polyval', @(v) polyval(p, v), [], shaped(-1, 1)), ...
       rule('polyval', @(v) polyval(v(1:4), v(5:end)), [], {rand(7, 1)}), ...
       rule('polyval', @(v) polyval(p, v, [], [0.5 2]), [], {rand(2, 3)})];
end

function c = construction_cases()
  c = [rule('reshape', @(x) reshape(x, 2, []), [], {rand(4, 3), rand(1, 6)}), ...
       rule('horzcat', @(x) [x, 2 * x], [], shaped(-1, 1)), rule('vertcat', @(x) [x; x.^2], [], shaped(-1, 1)), ...
       rule('double', @double, [], shaped(-1, 1))];
end

function c = rearrangement_cases()
  % Copies, permutations and concatenations of x: J is a 0/1 selection matrix, the same for every
  % shape; 3-D results included.
  c = [rule('repmat', @(x) repmat(x, 2, 3), [], shaped(-1, 1)), ...
       rule('repmat', @(x) repmat(x, [1 2 2]), [], shaped(-1, 1, {[1 1], [3 4]})), ...
       rule('permute', @(x) permute(x, [2 1]), [], shaped(-1, 1)), ...
       rule('permute', @(x) permute(x, [3 1 2]), [], shaped(-1, 1, {[1 5], [3 4]})), ...
       rule('permute', @(x) permute(reshape(x, 2, 3, 2), [2 3 1]), [], {rand(12, 1)}), ...
       rule('ipermute', @(x) ipermute(reshape(x, 2, 3, 2), [2 3 1]), [], {rand(12, 1)}), ...
       rule('ipermute', @(x) ipermute(x, [2 1]), [], shaped(-1, 1)), ...
       rule('squeeze', @(x) squeeze(reshape(x, 1, 3, 4)), [], {rand(12, 1)}), ...
       rule('squeeze', @squeeze, [], shaped(-1, 1)), ...
       rule('full', @full, [], shaped(-1, 1))];
  for name = {'flip', 'fliplr', 'flipud', 'rot90'}
    c = [c, rule(name{1}, str2func(name{1}), [], shaped(-1, 1))];
  end
  c = [c, rule('flip', @(x) flip(x, 2), [], shaped(-1, 1)), ...
       rule('rot90', @(x) rot90(x, 2), [], shaped(-1, 1)), rule('rot90', @(x) rot90(x, -1), [], shaped(-1, 1)), ...
       rule('circshift', @(x) circshift(x, 1), [], shaped(-1, 1)), ...
       rule('circshift', @(x) circshift(x, [1 -2]), [], shaped(-1, 1)), ...
       rule('circshift', @(x) circshift(x, -1, 2), [], shaped(-1, 1))];
  for dim = 1:3
    c = [c, rule('cat', lambda('cat(dim, x, 2 * x, x .^ 2)', 'dim', dim), [], shaped(-1, 1))];
  end
end

function c = grid_cases()
  % Spaced vectors and grids whose end points or coordinates are x.
  c = [rule('linspace', @(x) linspace(x(1), x(2), 5), [], {rand(2, 1)}), ...
       rule('linspace', @(x) linspace(x(1), 3, 4), [], {rand(1, 1)}), ...
       rule('logspace', @(x) logspace(x(1), x(2), 4), [], {rand(2, 1)}), ...
       rule('meshgrid', @(x) meshgrid(x(1:3), x(4:5)), [], {rand(5, 1)}), ...
       rule('meshgrid', @meshgrid, [], shaped(-1, 1, {[1 4], [3 1]})), ...
       rule('meshgrid', @grid_outputs, [], {rand(5, 1)}), ...
       rule('ndgrid', @(x) ndgrid(x(1:2), x(3:5)), [], {rand(5, 1)}), ...
       rule('ndgrid', @grid_outputs, [], {rand(5, 1)})];
end

function c = output_cases()
  % Values that come out of a later output (find's values) or a struct field.
  c = [rule('find', @find_values, @find_values_reference, {rand(6, 1) - 0.5, rand(3, 4) - 0.5}), ...
       rule('struct', @struct_values, [], {rand(5, 1)})];
end

function v = find_values_reference(x)
  % find_values with the mask taken on real parts (Octave compares complex numbers by modulus).
  k = find(real(x) > 0, 3);
  [i, j] = ind2sub(size(x), k);
  v = x(k) .^ 2 + i + j;
end
