function test_fmad_engine_rules()
  % fmad on the engine's rules (issue #23 item 5): msad_apply (msad_eval's
  % kernels and forward rules) gives the same bits as fmad's .m rules (their
  % formulas, written out here) for the elementwise functions, which keep the
  % .m rules (not faster through the MEX); the methods that call msad_apply
  % (products, quotients, powers, atan2, hypot) give its bits; fmad agrees
  % with msad_eval's Jacobian of the same expression (one rule set); and the
  % .m rule still decides where msad_apply does not apply: an infinite
  % partial, a nested fmad, an operand it does not take, the operation's
  % own error.
  fmadtest_setup;
  if exist('msad_apply', 'file') ~= 3
    error('fmadtest:build', 'matlab/msad_apply.mex is missing: run make build');
  end
  n = 5;
  x0 = [0.3; -0.45; 0.7; 0.05; -0.8];
  y0 = [1.3; 0.6; -0.9; 2.1; 0.4];
  seed = eye(n) + 0.5 * (mod((1:n)' + (1:n), 3) == 0);
  x = fmad(x0, seed);

  % The .m rules' partials, written as the .m files write them.
  unary = {
    'abs',   @sign
    'acos',  @(t) -1 ./ sqrt(1 - t .^ 2)
    'asin',  @(t) 1 ./ sqrt(1 - t .^ 2)
    'atan',  @(t) 1 ./ (1 + t .^ 2)
    'cos',   @(t) -sin(t)
    'cosh',  @sinh
    'exp',   @exp
    'log',   @(t) 1 ./ t
    'log10', @(t) 1 ./ (log(10) * t)
    'log1p', @(t) 1 ./ (1 + t)
    'sin',   @cos
    'sinh',  @cosh
    'sqrt',  @(t) 0.5 ./ sqrt(t)
    'tan',   @(t) 1 + tan(t) .^ 2
    'tanh',  @(t) 1 - tanh(t) .^ 2
  };
  for k = 1:size(unary, 1)
    [name, partial] = unary{k, :};
    t0 = x0;
    if any(strcmp(name, {'log', 'log10', 'sqrt'}))
      t0 = abs(x0);
    end
    [value, derivs, done] = msad_apply(name, t0, seed);
    check_same(done, true, [name ': msad_apply computes it']);
    y = feval(name, fmad(t0, seed));
    check_same(getvalue(y), value, [name ' value: fmad''s .m rule and msad_apply']);
    check_same(getinternalderivs(y), derivs, [name ' derivatives: fmad''s .m rule and msad_apply']);
    check_same(derivs, partial(t0) .* seed, [name ': the .m rule''s bits']);
    [~, J] = msad_eval(str2func(name), t0);
    fmadtest_check(derivs, full(J) * seed, 1e-15, [name ': msad_eval''s Jacobian']);
  end

  % Binary operations with implicit expansion, active and constant operands.
  binary = {
    'plus',    @(a, b) a + b
    'minus',   @(a, b) a - b
    'times',   @(a, b) a .* b
    'rdivide', @(a, b) a ./ b
    'ldivide', @(a, b) a .\ b
    'power',   @(a, b) abs(a) .^ b
    'atan2',   @atan2
    'hypot',   @hypot
    'mod',     @mod
    'rem',     @rem
  };
  for k = 1:size(binary, 1)
    [name, op] = binary{k, :};
    for form = {'both', 'constant second', 'constant first', 'row and column'}
      switch form{1}
        case 'both'
          f = @(t) op(t, 2 * t + y0);
        case 'constant second'
          f = @(t) op(t, y0);
        case 'constant first'
          f = @(t) op(y0, t);
        case 'row and column'
          f = @(t) op(t, y0(1:3)');
      end
      what = sprintf('%s (%s)', name, form{1});
      y = f(x);
      [fv, J] = msad_eval(f, x0);
      check_same(getvalue(y), fv, [what ' value']);
      fmadtest_check(getinternalderivs(y), full(J) * seed, 1e-15, [what ': msad_eval''s Jacobian']);
    end
  end
  [value, derivs, done] = msad_apply('times', x0, seed, y0, []);
  check_same(done, true, 'times: msad_apply computes it');
  check_same(derivs, y0 .* seed, 'times: the .m rule''s bits');
  y = x .* y0;
  check_same(getvalue(y), value, 'times value: the method calls msad_apply');
  check_same(getinternalderivs(y), derivs, 'times derivatives: the method calls msad_apply');
  [value, derivs] = msad_apply('atan2', x0, seed, y0, 2 * seed);
  y = atan2(x, fmad(y0, 2 * seed));
  check_same(getinternalderivs(y), derivs, 'atan2: the method calls msad_apply');
  r2 = x0 .^ 2 + y0 .^ 2;
  check_same(derivs, (y0 ./ r2) .* seed + (-x0 ./ r2) .* (2 * seed), 'atan2: the .m rule''s bits');

  % Where msad_apply does not apply, the .m rule decides.
  [~, ~, done] = msad_apply('sqrt', [0; 1], eye(2));
  check_same(done, false, 'sqrt at 0 (an infinite partial)');
  y = sqrt(fmad([0; 1], eye(2)));
  check_same(getinternalderivs(y), [Inf 0; 0 0.5], 'sqrt at 0 keeps the other direction zero');
  [~, ~, done] = msad_apply('plus', [1; 2], eye(2), [1; 2; 3], []);
  check_same(done, false, 'nonconformant operands');
  try
    fmad([1; 2], eye(2)) + [1; 2; 3];
    error('fmadtest:noError', 'nonconformant operands gave no error');
  catch err
    if ~strcmp(err.identifier, 'Octave:nonconformant-args')
      rethrow(err);
    end
  end
  [~, ~, done] = msad_apply('sin', sparse([1; 0]), eye(2));
  check_same(done, false, 'a sparse value');
  y = sin(fmad(sparse([1; 0]), eye(2)));
  check_same(full(getinternalderivs(y)), diag(cos([1; 0])), 'sin of a sparse value');
  y = fmad(x0, seed) .* fmad(y0, sparse(seed));
  check_same(issparse(getinternalderivs(y)), false, 'full times sparse derivatives: full, as the .m rule');
  check_same(getinternalderivs(y), y0 .* seed + x0 .* seed, 'full times sparse derivatives');
  y = fmad(x0, sparse(seed)) .* y0;
  check_same(issparse(getinternalderivs(y)), true, 'sparse derivatives times a constant: sparse');
  check_same(full(getinternalderivs(y)), y0 .* seed, 'sparse derivatives times a constant');
  h = sin(fmad(fmad(0.5, 1), 1));
  check_same(getinternalderivs(getinternalderivs(h)), -sin(0.5), 'sin of a nested fmad (second derivative)');
  try
    msad_apply('sin');
    error('fmadtest:noError', 'msad_apply without operands gave no error');
  catch err
    if isempty(strfind(err.message, 'msad_apply(name, x1, dx1'))
      rethrow(err);
    end
  end
end

function check_same(actual, expected, what)
  if ~isequal(actual, expected) || ~isequal(size(actual), size(expected))
    error('fmadtest:mismatch', '%s: not the same bits (largest difference %g)', what, ...
          max(abs(double(actual(:)) - double(expected(:)))));
  end
end
