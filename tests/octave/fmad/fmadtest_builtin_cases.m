function cases = fmadtest_builtin_cases()
% How fmad treats each builtin msad_eval supports (docs/builtins.md), as rows
% {name, kind, spec}; a name may have several rows. The argument x of each
% handle is the column [0.3; -0.45; 0.7; 1.2] (double or fmad), a point away
% from the kinks of the piecewise functions.
%   'derivative'  spec(x) gives the value of spec(x0) and, on an fmad, the
%                 derivatives of central differences (a double result: 0);
%   'first derivative'  as 'derivative', but nested fmad objects (second
%                 derivatives) raise msad:fmad:unsupported;
%   'value'       spec(x) on an fmad equals spec(x0), class included, and is
%                 no fmad object (predicates, text, integers);
%   'error'       spec = {identifier, handle}: the call raises that error;
%   'other'       spec is why the name does not apply to a double array.
  unsupported = 'msad:fmad:unsupported';
  M = @(x) reshape(x, 2, 2);
  constant = 'a constant or constructor: its arguments are sizes, values or class names (Octave 7 has no ''like'' form for it)';
  text = 'text, struct or cell function';
  raising = 'raises or builds errors';
  cases = {
    'cot', 'derivative', @(x) cot(x + 2)
    'csc', 'derivative', @(x) csc(x + 2)
    'Inf', 'derivative', @(x) min(Inf(4, 1, 'like', x), x)
    'MException', 'other', raising
    'NaN', 'derivative', @(x) max(NaN(4, 1, 'like', x), x)
    'abs', 'derivative', @abs
    'accumarray', 'derivative', @(x) accumarray([1; 2; 1; 3], x)
    'accumarray', 'derivative', @(x) accumarray([1 1; 2 2; 1 1; 1 2], x, [2 3])
    'accumarray', 'derivative', @(x) accumarray([1; 2; 1; 3], x, [], @max)
    'accumarray', 'derivative', @(x) accumarray([1; 2; 1; 4], x, [5 1], @(v) prod(v), -1)
    'accumarray', 'derivative', @(x) accumarray([1; 2; 1; 4], x, [], [], 2)
    'accumarray', 'error', {unsupported, @(x) accumarray([1; 2; 1; 3], x, [], [], 0, true)}
    'acos', 'derivative', @(x) acos(x / 2)
    'acosh', 'derivative', @(x) acosh(x + 2)
    'all', 'value', @all
    'and', 'value', @(x) x & [1; 0; 1; 1]
    'angle', 'derivative', @angle
    'any', 'value', @(x) any(x - 0.3)
    'arg', 'derivative', @arg
    'asin', 'derivative', @(x) asin(x / 2)
    'asinh', 'derivative', @asinh
    'atan', 'derivative', @atan
    'atan2', 'derivative', @(x) atan2(x, flipud(x))
    'atanh', 'derivative', @(x) atanh(x / 2)
    'bitand', 'value', @(x) bitand(100 * x .^ 2, 7)
    'bitor', 'value', @(x) bitor(100 * x .^ 2, 7)
    'bitshift', 'value', @(x) bitshift(100 * x .^ 2, 1)
    'bitxor', 'value', @(x) bitxor(100 * x .^ 2, 7)
    'blanks', 'other', constant
    'cat', 'derivative', @(x) cat(3, x, 2 * x)
    'cbrt', 'derivative', @cbrt
    'ceil', 'derivative', @(x) ceil(10 * x + 0.25)
    'cell', 'other', constant
    'char', 'value', @(x) char(10 * x + 70)
    'circshift', 'derivative', @(x) circshift(x, 1)
    'class', 'other', 'names the class of the object (''fmad'')'
    'colon', 'derivative', @(x) x(1):x(4) / 2:3
    'colon', 'derivative', @(x) 1:x(4) * 3
    'colon', 'derivative', @(x) x(1):-1
    'columns', 'value', @(x) columns(x')
    'complex', 'error', {unsupported, @complex}
    'conj', 'derivative', @conj
    'cos', 'derivative', @cos
    'cosh', 'derivative', @cosh
    'ctranspose', 'derivative', @ctranspose
    'cumprod', 'derivative', @cumprod
    'cumprod', 'derivative', @(x) cumprod(M(x), 2)
    'cumprod', 'derivative', @(x) cumprod(x .* [1; 0; 1; 1])
    'cumprod', 'derivative', @(x) cumprod(reshape([x; x(1:3)], 7, 1))
    'cumsum', 'derivative', @cumsum
    'cumsum', 'derivative', @(x) cumsum(M(x), 2)
    'deal', 'derivative', @deal
    'deblank', 'other', text
    'det', 'derivative', @(x) det(M(x))
    'diag', 'derivative', @diag
    'diff', 'derivative', @diff
    'diff', 'derivative', @(x) diff(M(x), 1, 2)
    'diff', 'derivative', @(x) diff(x, 2)
    'dot', 'derivative', @(x) dot(x, flipud(x))
    'dot', 'derivative', @(x) dot(M(x), M(x) + 1, 2)
    'double', 'error', {'fmad:double', @double}
    'e', 'other', constant
    'eps', 'derivative', @eps
    'eq', 'value', @(x) x == 0.7
    'erf', 'derivative', @erf
    'erfc', 'derivative', @erfc
    'erfcx', 'derivative', @erfcx
    'erfinv', 'derivative', @(x) erfinv(x / 2)
    'erfcinv', 'derivative', @(x) erfcinv(x + 0.6)
    'gamma', 'derivative', @(x) gamma(x + 1)
    'gamma', 'first derivative', @gamma
    'gammaln', 'derivative', @(x) gammaln(x + 1)
    'lgamma', 'derivative', @(x) lgamma(x + 1)
    'psi', 'derivative', @(x) psi(x + 1)
    'psi', 'derivative', @(x) psi(1, x + 1)
    'expint', 'derivative', @(x) expint(x + 1)
    'gammainc', 'derivative', @(x) gammainc(x + 1, 2)
    'gammainc', 'derivative', @(x) gammainc(x + 1, 2.5, 'upper')
    'betainc', 'derivative', @(x) betainc((x + 1) / 3, 2, 3)
    'besselj', 'derivative', @(x) besselj(1.5, x + 1)
    'bessely', 'derivative', @(x) bessely(0, x + 1)
    'besseli', 'derivative', @(x) besseli(-1, x + 1)
    'besselk', 'derivative', @(x) besselk(2, x + 1)
    'besselj', 'error', {unsupported, @(x) besselj([0 1], x + 1)}
    'airy', 'derivative', @airy
    'airy', 'derivative', @(x) airy(1, x)
    'airy', 'derivative', @(x) airy(2, x)
    'airy', 'derivative', @(x) airy(3, x)
    'beta', 'error', {unsupported, @(x) beta(x + 1, 2)}
    'betaln', 'error', {unsupported, @(x) betaln(x + 1, 2)}
    'legendre', 'error', {unsupported, @(x) legendre(2, x / 2)}
    'error', 'other', raising
    'exp', 'derivative', @exp
    'expm1', 'derivative', @expm1
    'eye', 'other', constant
    'false', 'other', constant
    'fieldnames', 'other', text
    'find', 'value', @(x) find(x .* [1; 0; 1; 1])
    'find', 'derivative', @(x) output(3, @find, x .* [1; 0; 1; 1])
    'find', 'derivative', @(x) output(3, @find, x' .* [1, 0, 1, 1], 1, 'last')
    'find', 'value', @(x) output(2, @find, M(x .* [1; 0; 1; 1]))
    'fix', 'derivative', @(x) fix(10 * x + 0.25)
    'flintmax', 'other', constant
    'flip', 'derivative', @flip
    'fliplr', 'derivative', @(x) fliplr(x')
    'flipud', 'derivative', @flipud
    'floor', 'derivative', @(x) floor(10 * x + 0.25)
    'full', 'derivative', @full
    'func2str', 'other', text
    'ge', 'value', @(x) x >= 0.7
    'gt', 'value', @(x) x > 0.7
    'horzcat', 'derivative', @(x) [x, 2 * x]
    'hypot', 'derivative', @(x) hypot(x, 1 + x .^ 2)
    'idivide', 'value', @(x) idivide(int32(7), 10 * x)
    'ifelse', 'derivative', @(x) ifelse(x > 0, x, -x .^ 2)
    'imag', 'derivative', @imag
    'inf', 'derivative', @(x) min(inf(4, 1, 'like', x), x)
    'int16', 'value', @(x) int16(10 * x)
    'int2str', 'value', @(x) int2str(10 * x)
    'int32', 'value', @(x) int32(10 * x)
    'int64', 'value', @(x) int64(10 * x)
    'int8', 'value', @(x) int8(10 * x)
    'interp1', 'derivative', @(x) interp1([0 1 2 3], x, [0.5 2.25])
    'interp1', 'derivative', @(x) interp1([-1 0 1 2], [1 3 2 5], x)
    'interp1', 'derivative', @(x) interp1([0 1 2 3], x, [0.5 2.25], 'spline')
    'interp1', 'derivative', @(x) interp1([0 1 2 3], x, [0.5 2.25], 'nearest')
    'interp1', 'derivative', @(x) interp1([-1 0 1 2], [1 3 2 5], x, 'pchip', 'extrap')
    'interp1', 'error', {unsupported, @(x) interp1([0 1 2 3], x, [0.5 2.25], 'pchip')}
    'chol', 'error', {unsupported, @(x) chol(M(x) * M(x)' + eye(2))}
    'eig', 'error', {unsupported, @(x) eig(M(x) + M(x)')}
    'expm', 'error', {unsupported, @(x) expm(M(x))}
    'logm', 'error', {unsupported, @(x) logm(M(x) + 2 * eye(2))}
    'sec', 'derivative', @sec
    'sqrtm', 'error', {unsupported, @(x) sqrtm(M(x) + 2 * eye(2))}
    'svd', 'error', {unsupported, @(x) svd(M(x))}
    'pinv', 'error', {unsupported, @(x) pinv(M(x))}
    'fft', 'error', {unsupported, @fft}
    'ifft', 'error', {unsupported, @ifft}
    'lu', 'error', {unsupported, @(x) lu(M(x))}
    'qr', 'error', {unsupported, @(x) qr(M(x))}
    'null', 'error', {unsupported, @(x) null([M(x); M(x)])}
    'orth', 'error', {unsupported, @(x) orth(M(x))}
    'interp2', 'error', {unsupported, @(x) interp2(M(x), 1.5, 1.5)}
    'fzero', 'other', 'solves with a function handle (fmad passes no derivatives through a handle''s captured values)'
    'fminbnd', 'other', 'minimises a function handle (fmad passes no derivatives through a handle''s captured values)'
    '__constant__', 'other', 'msad''s helper for its library fzero.m and fminbnd.m'
    '__slope__', 'other', 'msad''s helper for its library fzero.m and fminbnd.m'
    '__optim_name__', 'other', 'msad''s helper for its library optimset.m and optimget.m'
    'optimset', 'other', text
    'optimget', 'other', text
    'getfield', 'other', text
    'setfield', 'other', text
    '__pchip_slopes__', 'other', 'msad''s helper for its library pchip.m and interp2.m'
    'spline', 'derivative', @(x) spline(1:4, x.', 2.5)
    'polyfit', 'derivative', @(x) polyfit(1:4, x.', 1)
    'cumtrapz', 'derivative', @cumtrapz
    'pchip', 'error', {unsupported, @(x) pchip(1:4, x.', 2.5)}
    'ppval', 'other', 'evaluates a piecewise polynomial struct (its coefficients, not x, carry derivatives)'
    'integral', 'other', 'integrates a function handle (fmad passes no derivatives through a handle''s captured values)'
    'quadgk', 'other', 'integrates a function handle (fmad passes no derivatives through a handle''s captured values)'
    '__gauss_kronrod__', 'other', 'msad''s helper for its library integral.m'
    '__hermite_pp__', 'other', 'msad''s helper for its library pchip.m and spline.m'
    '__interp_options__', 'other', 'msad''s helper for its library interp1.m and interp2.m'
    '__interp1__', 'other', 'msad''s helper for its library interp1.m'
    '__pp_eval__', 'other', 'msad''s helper for its library ppval.m'
    '__sorted_samples__', 'other', 'msad''s helper for its library interp1.m'
    '__trapezoids__', 'other', 'msad''s helper for its library trapz.m and cumtrapz.m'
    'intmax', 'other', constant
    'intmin', 'other', constant
    'inv', 'derivative', @(x) inv(M(x))
    'inverse', 'derivative', @(x) inverse(M(x))
    'ipermute', 'derivative', @(x) ipermute(reshape(x, 1, 2, 2), [3 1 2])
    'is_function_handle', 'value', @is_function_handle
    'isa', 'other', 'names the class of the object (isa(x, ''fmad''))'
    'isbool', 'value', @isbool
    'iscell', 'value', @iscell
    'iscellstr', 'value', @iscellstr
    'ischar', 'value', @ischar
    'iscolumn', 'value', @iscolumn
    'iscomplex', 'value', @iscomplex
    'isempty', 'value', @isempty
    'isequal', 'value', @(x) isequal(x, [0.3; -0.45; 0.7; 1.2])
    'isequal', 'value', @(x) isequal(x, 2 * x)
    'isfield', 'value', @(x) isfield(x, 'value')
    'isfinite', 'value', @(x) isfinite(x ./ [1; 0; 1; 0])
    'isfloat', 'value', @isfloat
    'isinf', 'value', @(x) isinf(x ./ [1; 0; 1; 0])
    'isinteger', 'value', @isinteger
    'islogical', 'value', @islogical
    'ismatrix', 'value', @ismatrix
    'isnan', 'value', @(x) isnan(x ./ [1; 0; 1; 0] * 0)
    'isnumeric', 'value', @isnumeric
    'isobject', 'other', 'an fmad value is an object: isobject is true of it, as of any class'
    'isreal', 'value', @isreal
    'isrow', 'value', @isrow
    'isscalar', 'value', @isscalar
    'issparse', 'value', @issparse
    'issquare', 'value', @issquare
    'issquare', 'value', @(x) issquare(M(x))
    'isstruct', 'value', @isstruct
    'isvector', 'value', @isvector
    'kron', 'derivative', @(x) kron(x(1:2), x(3:4)')
    'ldivide', 'derivative', @(x) (x + 2) .\ x
    'le', 'value', @(x) x <= 0.7
    'length', 'value', @length
    'linspace', 'derivative', @(x) linspace(x(1), x(2), 5)
    'linspace', 'derivative', @(x) linspace(x(1:2), 3, 4)
    'linspace', 'derivative', @(x) linspace(x(1), x(2), 1)
    'log', 'derivative', @(x) log(x + 1)
    'log10', 'derivative', @(x) log10(x + 1)
    'log1p', 'derivative', @log1p
    'log2', 'derivative', @(x) log2(x + 1)
    'log2', 'derivative', @(x) output(1, @log2, x)
    'log2', 'value', @(x) output(2, @log2, x)
    'logical', 'value', @logical
    'logspace', 'derivative', @(x) logspace(x(1), x(2), 4)
    'lower', 'other', text
    'lt', 'value', @(x) x < 0.7
    'mat2str', 'value', @mat2str
    'max', 'derivative', @max
    'max', 'derivative', @(x) max(x, 0.5)
    'max', 'derivative', @(x) max(M(x), [], 2)
    'max', 'derivative', @(x) output(2, @max, x)
    'mean', 'derivative', @mean
    'mean', 'derivative', @(x) mean(M(x), 2)
    'merge', 'derivative', @(x) merge(x > 0, x, 2 * x)
    'merge', 'derivative', @(x) merge(true, x, 2 * x)
    'merge', 'derivative', @(x) merge(x > 0, 1, x)
    'meshgrid', 'derivative', @(x) output(1, @meshgrid, x(1:2), x(3:4))
    'meshgrid', 'derivative', @(x) output(2, @meshgrid, x(1:2), x(3:4))
    'min', 'derivative', @min
    'min', 'derivative', @(x) min(M(x), [], 2)
    'min', 'derivative', @(x) min(x, 0.5)
    'minus', 'derivative', @(x) 1 - x
    'mldivide', 'derivative', @(x) M(x) \ [1; 2]
    'mldivide', 'derivative', @(x) [4 1; 2 3] \ x(1:2)
    'mldivide', 'error', {unsupported, @(x) [x, x .^ 2] \ ones(4, 1)}
    'mod', 'derivative', @(x) mod(x, 0.33)
    'mod', 'derivative', @(x) mod(3, x + 2)
    'mpower', 'derivative', @(x) M(x) ^ 3
    'mpower', 'derivative', @(x) x(4) ^ x(1)
    'mpower', 'error', {unsupported, @(x) M(x) ^ 0.5}
    'mrdivide', 'derivative', @(x) x(1:2)' / M(x)
    'mtimes', 'derivative', @(x) M(x) * x(1:2)
    'nan', 'derivative', @(x) max(nan(4, 1, 'like', x), x)
    'ndgrid', 'derivative', @(x) output(1, @ndgrid, x(1:2), x(3:4))
    'ndims', 'value', @ndims
    'ne', 'value', @(x) x ~= 0.7
    'nnz', 'value', @(x) nnz(x - 0.3)
    'norm', 'derivative', @norm
    'norm', 'derivative', @(x) norm(x, 1)
    'norm', 'derivative', @(x) norm(M(x), 'fro')
    'norm', 'first derivative', @(x) norm(M(x))
    'norm', 'derivative', @(x) norm(M(x), 1)
    'norm', 'derivative', @(x) norm(M(x), Inf)
    'norm', 'derivative', @(x) norm(x, Inf)
    'norm', 'derivative', @(x) norm(x, -Inf)
    'norm', 'derivative', @(x) norm(x, 3)
    'norm', 'error', {unsupported, @(x) norm([x(1), 0; 0, x(1)])}
    'not', 'value', @(x) ~(x - 0.3)
    'num2cell', 'derivative', @(x) pick(num2cell(x), 3)
    'num2str', 'value', @num2str
    'numel', 'value', @numel
    'ones', 'derivative', @(x) ones(2, 'like', x)
    'or', 'value', @(x) x | [1; 0; 0; 0]
    'permute', 'derivative', @(x) permute(M(x), [2 1])
    'pi', 'other', constant
    'plus', 'derivative', @(x) x + flipud(x)
    'polyval', 'derivative', @(x) polyval([1 -2 3], x)
    'polyval', 'derivative', @(x) polyval(x, [0.5 2])
    'polyval', 'derivative', @(x) polyval(x, [0.5 2], [], [1 2])
    'polyval', 'error', {unsupported, @(x) output(2, @polyval, x, 0.5, struct())}
    'power', 'derivative', @(x) x .^ 3
    'power', 'derivative', @(x) 2 .^ x
    'power', 'derivative', @(x) (x + 1) .^ (x + 2)
    'print_usage', 'other', raising
    'prod', 'derivative', @prod
    'prod', 'derivative', @(x) prod(M(x), 2)
    'prod', 'derivative', @(x) prod(x .* [1; 0; 1; 1])
    'rdivide', 'derivative', @(x) 1 ./ (x + 2)
    'real', 'derivative', @real
    'rem', 'derivative', @(x) rem(x, 0.33)
    'rem', 'derivative', @(x) rem(3, x + 2)
    'repmat', 'derivative', @(x) repmat(x, 1, 2)
    'reshape', 'derivative', @(x) reshape(x, 1, 4)
    'rethrow', 'other', raising
    'rot90', 'derivative', @(x) rot90(M(x))
    'round', 'derivative', @(x) round(10 * x + 0.25)
    'rows', 'value', @rows
    'sign', 'derivative', @sign
    'sin', 'derivative', @sin
    'sinh', 'derivative', @sinh
    'size', 'value', @size
    'size_equal', 'value', @(x) size_equal(x, ones(4, 1))
    'size_equal', 'value', @(x) size_equal(x, ones(2))
    'sort', 'derivative', @sort
    'sort', 'derivative', @(x) sort(M(x), 2, 'descend')
    'sparse', 'derivative', @sparse
    'sparse', 'derivative', @(x) sparse([1 2 1 3], [1 1 2 2], x)
    'spdiags', 'error', {unsupported, @(x) spdiags(x, 0, 4, 4)}
    'speye', 'other', constant
    'sprintf', 'value', @(x) sprintf('%g ', x)
    'sqrt', 'derivative', @(x) sqrt(x + 1)
    'squeeze', 'derivative', @(x) squeeze(reshape(x, 1, 1, 4))
    'strcat', 'other', text
    'strcmp', 'other', text
    'strcmpi', 'other', text
    'strncmp', 'other', text
    'strncmpi', 'other', text
    'strtrim', 'other', text
    'struct', 'derivative', @(x) getfield(struct('a', x), 'a')
    'sum', 'derivative', @sum
    'sum', 'derivative', @(x) sum(M(x), 2)
    'tan', 'derivative', @tan
    'tanh', 'derivative', @tanh
    'throw', 'other', raising
    'times', 'derivative', @(x) x .* flipud(x)
    'times', 'derivative', @(x) x .* sparse([1; 0; 2; 3])
    'tolower', 'other', text
    'toupper', 'other', text
    'trace', 'derivative', @(x) trace(M(x))
    'transpose', 'derivative', @transpose
    'tril', 'derivative', @(x) tril(M(x))
    'triu', 'derivative', @(x) triu(M(x), 1)
    'true', 'other', constant
    'uint16', 'value', @(x) uint16(10 * x)
    'uint32', 'value', @(x) uint32(10 * x)
    'uint64', 'value', @(x) uint64(10 * x)
    'uint8', 'value', @(x) uint8(10 * x)
    'uminus', 'derivative', @uminus
    'uplus', 'derivative', @uplus
    'upper', 'other', text
    'vertcat', 'derivative', @(x) [x; 2 * x]
    'xor', 'value', @(x) xor(x, [1; 0; 0; 0])
    'zeros', 'derivative', @(x) zeros(2, 'like', x)
    'feval', 'derivative', @(x) feval(@sin, x)
    'cellfun', 'derivative', @(x) pick(cellfun(@(t) t .^ 2, {x}, 'UniformOutput', false), 1)
    'arrayfun', 'derivative', @(x) arrayfun(@(t) t ^ 2 + 1, x)
    'arrayfun', 'derivative', @(x) output(2, @arrayfun, @(t) deal(t, t ^ 3), M(x))
    'arrayfun', 'error', {unsupported, @(x) arrayfun(@(t) t, x, 'ErrorHandler', @(e, t) 0)}
    'arrayfun', 'derivative', @(x) pick(arrayfun(@(t) [t; t ^ 3], x, 'UniformOutput', false), 2)
    'trapz', 'derivative', @trapz
    'trapz', 'derivative', @(x) trapz([0 1 3 4], x)
    'sumsq', 'derivative', @sumsq
    'bsxfun', 'derivative', @(x) bsxfun(@times, x, x')
    'nth_element', 'derivative', @(x) nth_element(x, 2)
    'nth_element', 'derivative', @(x) nth_element(x, 2:3)
  };
end

function out = output(k, fn, varargin)
  % The k-th output of fn(varargin{:}).
  outputs = cell(1, k);
  [outputs{:}] = fn(varargin{:});
  out = outputs{k};
end

function element = pick(c, k)
  element = c{k};
end
