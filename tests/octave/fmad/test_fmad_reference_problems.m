% The team's reference problems (tests/octave/problems), written for plain
% doubles with preallocated outputs and scalar loops, run unchanged on fmad
% objects: Jacobians by sparse identity and by compressed seeds against the
% complex step, and Hessians of the scalar objectives against differences
% of the fmad gradient.
fmadtest_setup;
rand('state', 7);
problems = {
  'brusselator_rhs',      @brusselator_rhs,        brusselator_init(20) + 0.1*rand(40, 1)
  'brusselator_rhs_vec',  @brusselator_rhs_vec,    brusselator_init(20)
  'enzyme_residual',      @enzyme_residual,        enzyme_init()
  'broyden_tridiag',      @broyden_tridiag,        -ones(10, 1) + 0.1*rand(10, 1)
  'broyden_banded_loops', @broyden_banded_loops,   -ones(10, 1) + 0.1*rand(10, 1)
  'robertson_rhs',        @robertson_rhs,          [0.9; 2e-5; 0.1]
  'vanderpol_rhs',        @(y) vanderpol_rhs(y, 1000), [2; -0.5]
  'burgers_mm_vec',       @burgers_mm_vec,         burgers_init(16)
  'burgers_mm_loop',      @burgers_mm_loop,        burgers_init(16) + 0.01*rand(32, 1)
  'rd2d_rhs',             @rd2d_rhs,               rd2d_init(5)
};
for k = 1:size(problems, 1)
  [label, fun, x0] = problems{k, :};
  n = numel(x0);
  J_reference = cs_jacobian(fun, x0);
  y = fun(fmad(x0, speye(n)));
  check_value(getvalue(y), fun(x0), 1e-14, [label ' value']);
  J = getinternalderivs(y);
  check_jacobian(J, J_reference, 1e-12, [label ': sparse identity seed vs complex step']);
  pattern = J ~= 0;
  colours = MADcolor(pattern);
  compressed = getinternalderivs(fun(fmad(x0, MADgetseed(pattern, colours))));
  check_jacobian(MADuncompressJac(compressed, pattern, colours), J_reference, 1e-12, ...
                 [label ': compressed seed vs complex step']);
end

objectives = {
  'brown_fun',      @brown_fun,      [0.6; -0.9; 1.2; -0.7; 0.8]
  'ext_rosenbrock', @ext_rosenbrock, repmat([-1.2; 1], 3, 1)
};
for k = 1:size(objectives, 1)
  [label, fun, x0] = objectives{k, :};
  n = numel(x0);
  h = fun(fmad(fmad(x0, eye(n)), eye(n)));
  gradient = @(x) getinternalderivs(fun(fmad(x, eye(n))))';
  check_jacobian(getinternalderivs(getvalue(h))', cs_jacobian(fun, x0)', 1e-12, [label ' gradient']);
  check_jacobian(full(getinternalderivs(getinternalderivs(h))), fd_jacobian(gradient, x0), 1e-6, ...
                 [label ' Hessian vs differences of the gradient']);
end
