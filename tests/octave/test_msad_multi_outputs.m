function test_msad_multi_outputs()
% [f, e] = log2(x): mantissa and exponent equal Octave's (negative, subnormal, 0, Inf, NaN, powers of
% two), J, g and H of f against central differences (e has none) in every mode. A builtin called with
% more outputs than msad computes is msad:unsupported naming it and its position, never an internal
% error.
  x = [1; 3; -0.7; 1e-310; 0; 8; Inf; -Inf; NaN; 0.3; 2^-1022; realmax];
  assert(isequaln(msad_eval(@mantissa_exponent, x), mantissa_exponent(x)), 'log2 outputs differ from Octave''s');

  x = [3; -0.7; 0.3; 5; 0.04];
  J0 = fd_jacobian(@mantissa_exponent, x);
  for mode = {'forward', 'reverse', 'auto'}
    opts = struct('mode', mode{1});
    [f, J] = msad_eval(@mantissa_exponent, x, opts);
    check_value(f, mantissa_exponent(x), 0, ['value, ' mode{1}]);
    check_jacobian(J, J0, 1e-7, ['J, ' mode{1}]);
    objective = @(x) sum(mantissa_exponent(x) .* (1:15)');
    [v, g, H] = msad_eval(objective, x, opts);
    check_value(v, objective(x), 1e-15, ['objective, ' mode{1}]);
    check_jacobian(g', fd_jacobian(objective, x), 1e-7, ['g, ' mode{1}]);
    check_jacobian(H, fd_jacobian(@(y) gradient_of(objective, y), x), 1e-6, ['H, ' mode{1}]);
  end

  for which = 1:2
    try
      [~, ~] = msad_eval(@extra_outputs, [2; 3], struct(), which);
      error('test:noError', 'no error for case %d', which);
    catch err
      names = {'''sin'' called with 2 outputs', '''det'' called with 2 outputs'};
      assert(strcmp(err.identifier, 'msad:unsupported') && ~isempty(strfind(err.message, names{which})) ...
             && ~isempty(strfind(err.message, 'extra_outputs.m:')), '%s: %s', err.identifier, err.message);
    end
  end
end

function g = gradient_of(objective, x)
  [~, g] = msad_eval(objective, x);
end
