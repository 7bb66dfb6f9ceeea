function test_problems_fd_vs_cs()
% Central differences and the complex step agree to 1e-8 on every smooth
% reference problem: validates both oracles and the problems' complex safety.
% Exception, Burgers: its mesh rows mix entries ~3e4 with entries ~20, and
% central differences cannot resolve the small ones below ~eps^(2/3) * 3e4
% (measured: 2.5e-7 absolute at best, with a 10x smaller step than default).
% So Burgers is checked at 1e-7; cs_jacobian is the better oracle there.

  rand('state', 3);
  signs = (-1).^(1:8).';
  problems = {
    % label                 function                 point                                   step  tolerance
    'brusselator_rhs',      @brusselator_rhs,        brusselator_init(20) + 0.1*rand(40, 1), 1,    1e-8
    'brusselator_rhs_vec',  @brusselator_rhs_vec,    brusselator_init(20),                   1,    1e-8
    'enzyme_residual',      @enzyme_residual,        enzyme_init(),                          1,    1e-8
    'broyden_tridiag',      @broyden_tridiag,        -ones(10, 1) + 0.1*rand(10, 1),         1,    1e-8
    'broyden_banded_loops', @broyden_banded_loops,   -ones(10, 1) + 0.1*rand(10, 1),         1,    1e-8
    'brown_fun',            @brown_fun,              signs .* (0.5 + rand(8, 1)),            1,    1e-8
    'ext_rosenbrock',       @ext_rosenbrock,         repmat([-1.2; 1], 4, 1),                1,    1e-8
    'robertson_rhs',        @robertson_rhs,          [0.9; 2e-5; 0.1],                       1,    1e-8
    'vanderpol_rhs',        @(y) vanderpol_rhs(y, 1000), [2; -0.5],                          1,    1e-8
    'burgers_mm_vec',       @burgers_mm_vec,         burgers_init(16),                       0.1,  1e-7
    'burgers_mm_loop',      @burgers_mm_loop,        burgers_init(16) + 0.01*rand(32, 1),    0.1,  1e-7
    'rd2d_rhs',             @rd2d_rhs,               rd2d_init(5),                           1,    1e-8
  };
  for k = 1:size(problems, 1)
    [label, fun, x, stepScale, tol] = problems{k, :};
    [Jcs, f] = cs_jacobian(fun, x);
    assert(isreal(f), '%s: complex value at a real point', label);
    Jfd = fd_jacobian(fun, x, stepScale * max(abs(x), 1));
    check_jacobian(Jfd, Jcs, tol, [label ': fd vs cs']);
  end
end
