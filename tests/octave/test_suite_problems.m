function test_suite_problems()
% The +suite collection (tests/octave/fixtures/+suite): problem structs made by functions, found by
% name through str2func, holding RHS.F (the problem's own handle: a package function called through
% a captured handle with captured parameters, some of them handles: duffing's forcing, cstr's rate law)
% and the hand-coded Jacobian RHS.J. For every problem,
% msad on the problem's own handle gives F's value and the hand Jacobian, in forward, reverse and
% sparse mode, also through msad_odejac(prob.RHS.F); the hand Jacobians are checked against central
% differences first, so a wrong hand Jacobian cannot pass. Hessians of the least-squares merit
% 0.5*|F|^2 against differences of its hand gradient J'F. Stiff problems run in ode15s with
% msad_odejac(prob.RHS.F) and end where ode15s with the hand Jacobian ends.
  here = fileparts(mfilename('fullpath'));
  addpath(fullfile(here, 'fixtures'));
  names = suite.names();
  assert(numel(names) >= 25, 'the suite has %d problems', numel(names));
  for k = 1:numel(names)
    prob = suite.problem(names{k});
    y = prob.y0 + 0.1 * sin(7 * (1:numel(prob.y0))');  % away from zeros and symmetric points
    t = 0.3;
    F = @(v) prob.RHS.F(t, v);
    Jhand = prob.RHS.J(t, y);
    check_jacobian(Jhand, fd_jacobian(F, y), 1e-6, [prob.name ': hand Jacobian vs differences']);
    for mode = {'auto', 'forward', 'reverse'}
      [f, J] = msad_eval(F, y, struct('mode', mode{1}));
      assert(isequal(size(f), size(F(y))) && max(abs(f - F(y))) <= 1e-14 * max(1, max(abs(F(y)))), '%s: value', prob.name);
      check_jacobian(J, Jhand, 1e-11, [prob.name ' (' mode{1} ')']);
    end
    [~, J] = msad_eval(F, y, struct('jacobian', 'sparse'));
    check_jacobian(J, Jhand, 1e-11, [prob.name ' (sparse)']);
    jac = msad_odejac(prob.RHS.F);
    check_jacobian(jac(t, y), Jhand, 1e-11, [prob.name ' (msad_odejac)']);
    % Hessian mode: the least-squares merit of F, its gradient J'F by the hand Jacobian and its
    % Hessian against central differences of that hand gradient.
    merit = @(v) 0.5 * sum(F(v) .^ 2);
    hand_gradient = @(v) prob.RHS.J(t, v)' * F(v);
    [m, g, H] = msad_eval(merit, y);
    assert(abs(m - merit(y)) <= 1e-13 * max(1, abs(m)), '%s: merit value', prob.name);
    check_jacobian(g(:).', hand_gradient(y).', 1e-11, [prob.name ' (gradient)']);
    check_jacobian(H, fd_jacobian(hand_gradient, y), 1e-6, [prob.name ' (Hessian)']);
  end

  % Presets built by functions: another size or stiffness is another problem, with its own J.
  for preset = {{'brusselator', 5}, {'vanderpol', 10}, {'broyden_tridiagonal', 12}, {'duffing', 2}}
    prob = suite.problem(preset{1}{:});
    y = prob.y0 + 0.05;
    [~, J] = msad_eval(@(v) prob.RHS.F(0, v), y);
    check_jacobian(J, prob.RHS.J(0, y), 1e-11, sprintf('%s preset %d', preset{1}{:}));
  end

  % ode15s with msad's Jacobian of the problem's own handle, against ode15s with the hand Jacobian.
  for name = {'robertson', 'vanderpol', 'hires', 'oregonator', 'brusselator', 'cstr'}
    prob = suite.problem(name{1});
    span = [0, 1];
    tolerances = {'RelTol', 1e-5, 'AbsTol', 1e-8};
    [~, by_msad] = ode15s(prob.RHS.F, span, prob.y0, odeset(tolerances{:}, 'Jacobian', msad_odejac(prob.RHS.F)));
    [~, by_hand] = ode15s(prob.RHS.F, span, prob.y0, odeset(tolerances{:}, 'Jacobian', prob.RHS.J));
    final = by_hand(end, :);
    assert(max(abs(by_msad(end, :) - final) ./ max(abs(final), 1e-6)) < 1e-4, '%s: ode15s end point', name{1});
  end
end
