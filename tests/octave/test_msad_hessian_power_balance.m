function test_msad_hessian_power_balance()
% The Hessian of a power-balance Lagrangian lambda' * [P; Q] in real form (fixtures/
% power_balance_lagrangian.m, G and B captured sparse) on a meshed 40-bus network: msad's H against
% the Hessian hand-coded from the polar form (fixtures/power_balance_hessian.m) and both against
% central differences of L; same pattern, sparse, and star-coloured with a few colours.
  buses = 40;
  [Ybus, ~, Va, Vm] = power_flow_network(buses);
  [G, B] = deal(real(Ybus), imag(Ybus));
  x = [Va; Vm];
  lambda = 1 + 0.1 * mod((1:2 * buses)', 7) - 0.05 * mod((1:2 * buses)', 3);
  L = @(y) power_balance_lagrangian(y, G, B, lambda);
  log = evalc('[f, g, H] = msad_eval(@power_balance_lagrangian, x, struct(''verbose'', true), G, B, lambda);');
  Hhand = power_balance_hessian(x, G, B, lambda);
  assert(issparse(H) && isequal(H ~= 0, Hhand ~= 0), 'H is sparse with the hand-coded pattern');
  assert(max(abs(nonzeros(H - Hhand))) <= 1e-13 * max(abs(nonzeros(Hhand))), 'msad H = hand-coded H');
  assert(abs(f - L(x)) <= 1e-13 * abs(f), 'value');
  colours = str2double(regexp(log, '(\d+) colours', 'tokens', 'once'){1});
  assert(colours < 20, sprintf('a few colours for %d unknowns, not %d', 2 * buses, colours));
  % Central differences of L on every structural entry and a sample of the zeros.
  n = 2 * buses;
  h = 1e-4;
  [i, j] = find(Hhand | mod((1:n)' + (1:n), 17) == 0);
  for k = 1:numel(i)
    [ei, ej] = deal(h * ((1:n)' == i(k)), h * ((1:n)' == j(k)));
    second = (L(x + ei + ej) - L(x + ei - ej) - L(x - ei + ej) + L(x - ei - ej)) / (4 * h^2);
    assert(abs(second - Hhand(i(k), j(k))) <= 1e-5 * max(abs(nonzeros(Hhand))), ...
           sprintf('H(%d, %d) = %g, central differences %g', i(k), j(k), Hhand(i(k), j(k)), second));
  end
  assert(numel(g) == n, 'gradient');
end
