function methods = bench_methods(problem, pattern, colours)
% BENCH_METHODS  The ways of computing J (and f) that the driver times, for one problem and size.
%   methods = bench_methods(problem, pattern, colours): struct array with
%     label   column heading
%     kind    'ad' (exact up to rounding), 'fd' (truncation error expected) or 'value'
%     run     handle: [J, f] = run(x), both J and f computed (the timed quantity is J+f);
%             a 'value' method computes f only (J = []): msad's speed on the function itself
%     growth  exponent of time in n assumed before two sizes have been measured
%     cold    true when the first call does more than later ones (msad: preparation and
%             sparsity detection), so that it cannot count as a timing sample
%     skip    reason not to run it at all ('' = run)
%   Exact methods come first, then the most accurate FD: the first one that succeeds gives
%   the reference Jacobian.
  fun = problem.fun;
  n = numel(colours);
  methods = struct('label', {}, 'kind', {}, 'run', {}, 'growth', {}, 'skip', {}, 'cold', {});
  if ~isempty(problem.hand)
    methods(end+1) = method('hand', 'ad', @(x) hand_jacobian(fun, problem.hand, x), 1);
  end
  methods(end+1) = cold(method('msad full', 'ad', @(x) msad_jacobian(fun, x, struct('jacobian', 'full')), 2));
  methods(end+1) = cold(method('msad', 'ad', @(x) msad_jacobian(fun, x, struct()), 2));
  methods(end+1) = cold(method('msad f only', 'value', @(x) msad_value(fun, x), 1));
  fmadSparse = method('fmad sparse', 'ad', @(x) fmad_jacobian(fun, x, speye(n)), 1);
  fmadCompressed = method('fmad compressed', 'ad', @(x) fmad_compressed_jacobian(fun, x, pattern, colours), 1);
  if ~exist('fmad')
    [fmadSparse.skip, fmadCompressed.skip] = deal('fmad not on the path');
  elseif ~(exist('MADgetseed') && exist('MADuncompressJac'))
    fmadCompressed.skip = 'MADgetseed/MADuncompressJac not on the path';
  elseif max(colours) == n
    fmadCompressed.skip = 'dense pattern: same as fmad sparse';
  end
  methods(end+1) = fmadSparse;
  methods(end+1) = fmadCompressed;
  methods(end+1) = method('FD central', 'fd', @(x) fd_jacobian(fun, x), 2);
  sparseFd = method('sparse FD', 'fd', @(x) forward_fd_jacobian(fun, x, pattern, colours), 1);
  if max(colours) == n
    sparseFd.skip = 'dense pattern: same as FD forward';
  end
  methods(end+1) = sparseFd;
  methods(end+1) = method('FD forward', 'fd', @(x) forward_fd_jacobian(fun, x), 2);
end

function m = method(label, kind, run, growth)
  m = struct('label', label, 'kind', kind, 'run', run, 'growth', growth, 'skip', '', 'cold', false);
end

function m = cold(m)
  m.cold = true;
end

function [J, f] = hand_jacobian(fun, jacobian, x)
  f = fun(x);
  J = jacobian(x);
end

function [J, f] = msad_jacobian(fun, x, options)
  [f, J] = msad_eval(fun, x, options);
end

function [J, f] = msad_value(fun, x)
  J = [];
  f = msad_eval(fun, x);
end

function [J, f] = fmad_jacobian(fun, x, seed)
  y = fun(fmad(x, seed));
  f = getvalue(y);
  J = getinternalderivs(y);
end

function [J, f] = fmad_compressed_jacobian(fun, x, pattern, colours)
  [compressed, f] = fmad_jacobian(fun, x, MADgetseed(pattern, colours));
  J = MADuncompressJac(compressed, pattern, colours);
end
