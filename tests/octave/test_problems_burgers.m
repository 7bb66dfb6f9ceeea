function test_problems_burgers()
% Moving-mesh Burgers: loop and vectorised versions agree, trivial states are
% steady, the mesh equation pulls nodes towards equal arclength, and the
% residual is a consistent discretisation of the PDE written along moving nodes.

  rand('state', 2);
  for N = [1 2 16 100]
    y0 = burgers_init(N);
    perturbed = y0 + [0.1*rand(N, 1); 0.2/(N + 1)*(rand(N, 1) - 0.5)];
    for y = {y0, perturbed}
      check_value(burgers_mm_vec(y{1}), burgers_mm_loop(y{1}), 1e-13, ...
                  sprintf('vec vs loop, N = %d', N));
    end
  end

  % u = 0 on a uniform mesh is a steady state (up to the rounding of i/(N+1)).
  N = 9;
  uniform = (1:N).' / (N + 1);
  assert(max(abs(burgers_mm_vec([zeros(N, 1); uniform]))) < 1e-9);

  % With u = 0, a node pushed right of centre moves back left.
  mesh = uniform;
  mesh(5) = mesh(5) + 0.02;
  dydt = burgers_mm_loop([zeros(N, 1); mesh]);
  assert(dydt(N + 5) < 0 && dydt(N + 4) > 0 && dydt(N + 6) > 0);

  % Consistency: for smooth u(x) on a smoothly graded mesh,
  %   u_i' - u_x(x_i) x_i'  ->  e u_xx - u u_x  as N grows, at second order
  % (4x the points: 16x smaller). The constant is large (0.3 at N = 200)
  % because x_i' ~ 1/tau = 100 multiplies the O(h^2) error of ux.
  epsilon = 1e-4;
  u = @(x) sin(pi*x) .* (1 + x);
  ux = @(x) pi*cos(pi*x) .* (1 + x) + sin(pi*x);
  uxx = @(x) -pi^2*sin(pi*x) .* (1 + x) + 2*pi*cos(pi*x);
  errors = zeros(1, 2);
  sizes = [100 400];
  for k = 1:2
    N = sizes(k);
    xi = (1:N).' / (N + 1);
    x = xi + 0.1 * sin(pi*xi) .* xi;  % graded, monotone, fixes 0 and 1
    dydt = burgers_mm_vec([u(x); x]);
    physical = dydt(1:N) - ux(x) .* dydt(N+1:end);
    errors(k) = max(abs(physical - (epsilon*uxx(x) - u(x).*ux(x))));
  end
  assert(errors(2) < errors(1) / 12, 'not second order: errors %g, %g', errors);
end
