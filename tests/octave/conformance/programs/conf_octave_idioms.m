function y = conf_octave_idioms(x)
% conformance: library scalar row col mat empty00 nd3
% Octave library style: assignments inside conditions, and a name nothing defines on a path that
% does not run.
  sz = size (x);
  (dim = find (sz > 1, 1)) || (dim = 1);
  if ((n = numel (x)) > 1000)
    y = no_such_function (x);
    return;
  endif
  y = [cumsum(x, dim)(:); n; dim];
end
