function test_fmad_engine_arrays()
  % fmad on the engine's rules (issue #23 item 5), the array operations that
  % call msad_apply where benches/octave/bench_fmad_engine.sh found it faster
  % with the same bits (sums along a later dimension, max and min of two
  % operands): each gives the same bits as fmad's .m rule (the same @fmad
  % with on_engine turned off, in a scratch folder), Octave's values and the
  % derivatives of central differences; ties and NaNs pick the same operand
  % both ways. msad_apply's indexing and assignment (which fmad does not
  % call: slower) give the .m rule's bits. Where msad_apply does not apply
  % (a nested fmad, a sparse value) the .m rule decides.
  fmadtest_setup;
  if exist('msad_apply', 'file') ~= 3
    error('fmadtest:build', 'matlab/msad_apply.mex is missing: run make build');
  end
  p0 = [0.3; -0.45; 0.7; 0.05; -0.8; 1.1; 0.6; -0.2; 0.9; -1.3; 0.4; 0.25];
  seed = eye(12) + 0.5 * (mod((1:12)' + (1:12), 5) == 0);
  q0 = flipud(p0) + 0.1;
  % Each operation is a function of the 12 unknowns p (a double or an fmad
  % object) giving an array whose derivatives it checks.
  ops = {
    'sum(P, 2)',             @(p) sum(reshape(p, 3, 4), 2)
    'sum(p.'')',             @(p) sum(p.')
    'sum(P3, 3)',            @(p) sum(reshape(p, 2, 2, 3), 3)
    'sum(P3, 2)',            @(p) sum(reshape(p, 2, 2, 3), 2)
    'sum(P, 3)',             @(p) sum(reshape(p, 3, 4), 3)
    'sum(P)',                @(p) sum(reshape(p, 3, 4))
    'max(p, q)',             @(p) max(p, q0)
    'min(p, q)',             @(p) min(p, q0)
    'max(p, 0.5)',           @(p) max(p, 0.5)
    'min(0.2, p)',           @(p) min(0.2, p)
    'max(P, row)',           @(p) max(reshape(p, 3, 4), [0 0.5 -0.5 1])
    'min(p, 2 * p(end:-1:1))', @(p) min(p, 2 * flipud(p))
    'max(p)',                @(p) max(p)
  };
  repo = fileparts(fileparts(fileparts(fileparts(mfilename('fullpath')))));
  rules = fullfile(repo, 'matlab');
  scratch = tempname();
  mkdir(scratch);
  copyfile(fullfile(rules, '@fmad'), fullfile(scratch, '@fmad'));
  cleanup = onCleanup(@() remove_folder(scratch));
  write_text(fullfile(scratch, '@fmad', 'private', 'on_engine.m'), ...
             'function [z, done] = on_engine(varargin)\n  z = [];\n  done = false;\nend\n');
  m_rules = evaluate(ops, {fmad(p0, seed)}, {scratch, rules});
  engine = evaluate(ops, {fmad(p0, seed)}, {});
  for k = 1:size(ops, 1)
    name = ops{k, 1};
    check_same(engine{k, 1}, m_rules{k, 1}, [name ' value: msad_apply and the .m rule']);
    check_same(engine{k, 2}, m_rules{k, 2}, [name ' derivatives: msad_apply and the .m rule']);
    check_same(engine{k, 1}, ops{k, 2}(p0), [name ' value: Octave''s']);
    J = fd_jacobian(ops{k, 2}, p0);
    fmadtest_check(full(engine{k, 2}), J * seed, 1e-8, [name ': central differences']);
  end

  % Ties and NaNs: the same operand's derivatives both ways.
  a0 = [1; 2; NaN; NaN; 3; -0; 0];
  b0 = [1; 3; 1; NaN; 2; 0; -0];
  pairs = {'max', @(a, b) max(a, b); 'min', @(a, b) min(a, b)};
  a = fmad(a0, eye(7));
  b = fmad(b0, 2 * eye(7));
  m_rules = evaluate(pairs, {a, b}, {scratch, rules});
  engine = evaluate(pairs, {a, b}, {});
  for k = 1:2
    check_same(isnan(engine{k, 1}), isnan(m_rules{k, 1}), [pairs{k, 1} ' of ties and NaNs: NaNs']);
    check_same(engine{k, 1}(~isnan(engine{k, 1})), m_rules{k, 1}(~isnan(m_rules{k, 1})), [pairs{k, 1} ' of ties and NaNs']);
    check_same(engine{k, 2}, m_rules{k, 2}, [pairs{k, 1} ' of ties and NaNs: derivatives']);
    check_same(diag(engine{k, 2})([1 4 6 7]), [1; 1; 1; 1], [pairs{k, 1} ': ties and two NaNs take a''s derivatives']);
  end

  % The methods call msad_apply: its own results, called directly.
  x = fmad(p0, seed);
  [value, derivs, done] = msad_apply('sum', reshape(p0, 3, 4), seed, 2, []);
  check_same(done, true, 'sum: msad_apply computes it');
  y = sum(reshape(x, 3, 4), 2);
  check_same({getvalue(y), getinternalderivs(y)}, {value, derivs}, 'sum(P, 2) calls msad_apply');
  [value, derivs] = msad_apply('max', p0, seed, q0, []);
  check_same({getvalue(max(x, q0)), getinternalderivs(max(x, q0))}, {value, derivs}, 'max(p, q) calls msad_apply');

  % msad_apply's indexing and assignment give the .m rule's bits.
  [value, derivs, done] = msad_apply('subsref', p0, seed, [3 1 3], []);
  check_same(done, true, 'subsref: msad_apply computes it');
  check_same({value, derivs}, {p0([3 1 3]), seed([3 1 3], :)}, 'msad_apply(''subsref'', ...)');
  [value, derivs] = msad_apply('subsref', reshape(p0, 3, 4), seed, ':', [], 2, []);
  check_same({value, derivs}, {p0(4:6), seed(4:6, :)}, 'msad_apply(''subsref'', ..., '':'', 2)');
  [value, derivs] = msad_apply('subsasgn', p0, seed, 0.5, [], 1:2:12, []);
  y = subsasgn(x, substruct('()', {1:2:12}), 0.5);
  check_same({value, derivs}, {getvalue(y), getinternalderivs(y)}, 'msad_apply(''subsasgn'', ...) = 0.5');
  [value, derivs] = msad_apply('subsasgn', p0, seed, p0(5:7), seed(5:7, :), 2:4, []);
  y = subsasgn(x, substruct('()', {2:4}), x(5:7));
  check_same({value, derivs}, {getvalue(y), getinternalderivs(y)}, 'msad_apply(''subsasgn'', ...) = p(5:7)');
  [~, ~, done] = msad_apply('subsref', p0, seed, 13, []);
  check_same(done, false, 'an index out of range');

  % Where msad_apply does not apply, the .m rule decides.
  h = max(fmad(fmad(p0(1:3), eye(3)), ones(3, 1)), 0);
  check_same(getinternalderivs(getvalue(h)), diag(double(p0(1:3) > 0)), 'max of a nested fmad');
  y = sum(fmad(sparse(reshape(p0, 3, 4)), seed), 2);
  check_same(getinternalderivs(y), seed(1:3, :) + seed(4:6, :) + seed(7:9, :) + seed(10:12, :), 'sum of a sparse value');
end

function results = evaluate(ops, args, paths)
  % Values and derivative matrices of the operations on ARGS, with the
  % first folder of PATHS taking the place of the second while they run.
  if ~isempty(paths)
    swap_path(paths{2}, paths{1});
    restore = onCleanup(@() swap_path(paths{1}, paths{2}));
  end
  results = cell(size(ops, 1), 2);
  for k = 1:size(ops, 1)
    y = ops{k, 2}(args{:});
    results(k, :) = {getvalue(y), getinternalderivs(y)};
  end
end

function swap_path(out, in)
  rmpath(out);
  addpath(in);
end

function remove_folder(folder)
  confirm_recursive_rmdir(false, 'local');
  rmdir(folder, 's');
end

function write_text(file, text)
  fid = fopen(file, 'w');
  fprintf(fid, text);
  fclose(fid);
end

function check_same(actual, expected, what)
  if ~isequal(actual, expected) || ~isequal(size(actual), size(expected)) || ~isequal(class(actual), class(expected))
    error('fmadtest:mismatch', '%s: not the same bits', what);
  end
end
