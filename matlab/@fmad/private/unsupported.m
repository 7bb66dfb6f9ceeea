function unsupported(name, why)
% Raises msad:fmad:unsupported for a function fmad has no derivative rule
% for: names it, says why and points to msad_eval, which differentiates
% the user's code as a whole.
  error('msad:fmad:unsupported', ...
        ['fmad: %s is not supported on fmad objects (%s); differentiate the ' ...
         'function with [f, J] = msad_eval(@fun, x) instead'], name, why);
end
