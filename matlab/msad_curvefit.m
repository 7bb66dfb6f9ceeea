function model = msad_curvefit(modelFunction)
% MSAD_CURVEFIT  Model-and-Jacobian handle for lsqcurvefit, by msad.
%   model = msad_curvefit(modelFunction) returns the handle
%   model = @(p, xdata) with
%     [y, J] = model(p, xdata)   y = modelFunction(p, xdata) and its
%                                Jacobian dy/dp (numel(y) x numel(p));
%     y = model(p, xdata)        just the model, evaluated by Octave.
%   Use it with lsqcurvefit (optim package, or MATLAB) and
%   optimset('Jacobian', 'on').
%
%   Example (an exponential decay):
%     pkg load optim
%     xdata = (0:0.5:5)';  ydata = 3 * exp(-0.7 * xdata) + 0.5;
%     decay = @(p, t) p(1) * exp(-p(2) * t) + p(3);
%     p = lsqcurvefit(msad_curvefit(decay), [1; 1; 0], xdata, ydata, [], [], optimset('Jacobian', 'on'));
%     % p = [3; 0.7; 0.5]
%
%   Errors: msad:badInput for a model that cannot be called as
%   model(p, xdata) or a p that is not a real full double array;
%   msad_eval's own errors for code msad cannot differentiate.
%
%   See also msad_fjac, msad_eval, lsqcurvefit.
  modelFunction = msad_check_function(modelFunction, 2, 'msad_curvefit', 'model(p, xdata)');
  model = @(p, xdata) model_and_jacobian(modelFunction, p, xdata);
end

function [y, J] = model_and_jacobian(modelFunction, p, xdata)
  if nargout < 2
    y = modelFunction(p, xdata);
    return;
  end
  msad_check_double(p, 'p', 'msad_curvefit', false);
  [y, J] = msad_eval(modelFunction, p, [], xdata);
  msad_check_double(y, 'model(p, xdata)', 'msad_curvefit', true);
end

%!test
%! [y, J] = feval(msad_curvefit(@(p, t) p(1) * exp(-p(2) * t)), [2; 0.5], [0; 1]);
%! assert(y, [2; 2 * exp(-0.5)], 1e-15);
%! assert(J, [1, 0; exp(-0.5), -2 * exp(-0.5)], 1e-15);

%!test  # in lsqcurvefit (optim package), when installed: the exact parameters from exact data
%! if isempty(pkg('list', 'optim'))
%!   warning('msad:test:skipped', 'msad_curvefit: the optim package is not installed: lsqcurvefit not tested');
%!   return;
%! end
%! oldPath = path();
%! restorePath = onCleanup(@() path(oldPath));  # optim loads statistics, which shadows mean, std, ...
%! pkg load optim
%! xdata = (0:0.5:5)';
%! ydata = 3 * exp(-0.7 * xdata) + 0.5;
%! decay = @(p, t) p(1) * exp(-p(2) * t) + p(3);
%! [p, resnorm] = lsqcurvefit(msad_curvefit(decay), [1; 1; 0], xdata, ydata, [], [], optimset('Jacobian', 'on'));
%! assert(p, [3; 0.7; 0.5], 1e-8);
%! assert(resnorm < 1e-16);

%!error <takes 1 input\(s\), but it is called as model\(p, xdata\) with 2> msad_curvefit(@(p) p)
