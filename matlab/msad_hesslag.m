function hess = msad_hesslag(f, nonlcon)
% MSAD_HESSLAG  Hessian of the Lagrangian for fmincon-style solvers, by msad.
%   hess = msad_hesslag(f, nonlcon) returns the handle hess = @(x, lambda)
%   with the exact Hessian of the Lagrangian
%     L(x) = f(x) + lambda.ineqnonlin' * c(x) + lambda.eqnonlin' * ceq(x),
%   [c, ceq] = nonlcon(x): fmincon's HessianFcn (MATLAB:
%   optimoptions('fmincon', 'Algorithm', 'interior-point',
%   'HessianFcn', hess)). nonlcon may be [] (then hess = @(x, lambda), the
%   Hessian of f), or a cell {c, ceq} of two functions of x (either may be
%   []): the form for anonymous functions, since msad's Hessians do not
%   follow deal's second output (@(x) deal(c, ceq) works in msad_nonlcon,
%   not here). H is sparse when that pays.
%
%   Example:
%     f = @(x) x(1) * x(2)^2;
%     hess = msad_hesslag(f, {@(x) x' * x - 1, []});
%     H = hess([1; 2], struct('ineqnonlin', 3, 'eqnonlin', zeros(0, 1)));
%     assert(full(H), [6, 4; 4, 8], 1e-13)
%
%   Errors: msad:badInput for an f that cannot be called as f(x), a
%   nonlcon that cannot be called as nonlcon(x), or a lambda without the
%   fields ineqnonlin and eqnonlin; msad_eval's own errors for code msad
%   cannot differentiate twice.
%
%   See also msad_lagrangian, msad_nonlcon, msad_fgrad, msad_sqp.
  f = msad_check_function(f, 1, 'msad_hesslag', 'f(x)');
  if iscell(nonlcon) && numel(nonlcon) == 2
    for k = find(~cellfun(@isempty, nonlcon))
      nonlcon{k} = msad_check_function(nonlcon{k}, 1, 'msad_hesslag', 'c(x)');
    end
  elseif ~isempty(nonlcon)
    nonlcon = msad_check_function(nonlcon, 1, 'msad_hesslag', 'nonlcon(x)');
  end
  hess = @(x, lambda) lagrangian_hessian(f, nonlcon, x, lambda);
end

function H = lagrangian_hessian(f, nonlcon, x, lambda)
  msad_check_double(x, 'x', 'msad_hesslag', false);
  if ~isstruct(lambda) || ~all(isfield(lambda, {'ineqnonlin', 'eqnonlin'}))
    error('msad:badInput', 'msad_hesslag: lambda must be a struct with the fields ineqnonlin and eqnonlin (fmincon''s multipliers), not a %s', ...
          msad_describe(lambda));
  end
  % Handles are captured one by one (msad calls no handle it cannot read from the capture); the
  % multipliers, which change from call to call, become inputs of the cached plan.
  lambdaIneq = lambda.ineqnonlin;
  lambdaEq = lambda.eqnonlin;
  if iscell(nonlcon)
    [c, ceq] = nonlcon{:};
    lagrangian = @(x) msad_lagrangian(x, f, c, lambdaIneq, lambdaEq, ceq);
  else
    lagrangian = @(x) msad_lagrangian(x, f, nonlcon, lambdaIneq, lambdaEq);
  end
  [~, ~, H] = msad_eval(lagrangian, x);
end

%!test  # against the hand-derived Hessian: a constraint function file, a cell, no constraints
%! addpath(fullfile(fileparts(which('msad_hesslag')), '..', 'tests', 'octave', 'fixtures'));
%! f = @(x) x(1) * x(2)^2;
%! expected = [0, 4; 4, 2] + 3 * 2 * eye(2) + 0.5 * [6, 0; 0, 0];
%! lambda = struct('ineqnonlin', 3, 'eqnonlin', 0.5);
%! H = feval(msad_hesslag(f, @disc_and_cubic), [1; 2], lambda);
%! assert(full(H), expected, 1e-13);
%! H = feval(msad_hesslag(f, {@(x) x' * x - 1, @(x) x(1)^3}), [1; 2], lambda);
%! assert(full(H), expected, 1e-13);
%! H = feval(msad_hesslag(f, []), [1; 2], struct('ineqnonlin', [], 'eqnonlin', []));
%! assert(full(H), [0, 4; 4, 2], 1e-13);

%!test  # Newton's method on the KKT system of a problem with one equality
%! f = @(x) x(1)^4 + x(2)^2 + x(1) * x(2);
%! circle = @(x) x(1)^2 + x(2)^2 - 1;
%! hess = msad_hesslag(f, {[], circle});
%! con = msad_nonlcon(@(x) deal([], circle(x)));
%! fun = msad_fgrad(f);
%! z = [0.6; -0.8; 1];
%! for k = 1:20
%!   [~, g] = fun(z(1:2));
%!   [~, ceq, ~, gceq] = con(z(1:2));
%!   H = full(hess(z(1:2), struct('ineqnonlin', zeros(0, 1), 'eqnonlin', z(3))));
%!   step = -[H, gceq; gceq', 0] \ [g + gceq * z(3); ceq];
%!   z = z + step;
%! end
%! assert(norm(step) < 1e-12);
%! [~, g] = fun(z(1:2));
%! assert(norm(g + 2 * z(3) * z(1:2)) < 1e-12);
%! assert(z(1:2)' * z(1:2), 1, 1e-12);

%!error <lambda must be a struct> feval(msad_hesslag(@(x) x' * x, []), [1; 2], 3)
