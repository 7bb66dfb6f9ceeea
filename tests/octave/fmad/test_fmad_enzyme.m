% MINPACK-2 enzyme reaction problem (Kowalik and Osborne): 11 residuals,
% 4 unknowns, f_i(x) = y_i - x1 (u_i^2 + x2 u_i) / (u_i^2 + x3 u_i + x4).
% Jacobian (full seed), vectorised and scalar-loop residuals, against the
% hand Jacobian and central differences; Hessian of the sum of squares
% against differences of its gradient.
fmadtest_setup;
u = [4; 2; 1; 0.5; 0.25; 0.167; 0.125; 0.1; 0.0833; 0.0714; 0.0625];
y = [0.1957; 0.1947; 0.1735; 0.16; 0.0844; 0.0627; 0.0456; 0.0342; 0.0323; 0.0235; 0.0246];
x0 = enzyme_init();                          % standard starting point

residual = @(x) y - x(1) * (u .^ 2 + x(2) * u) ./ (u .^ 2 + x(3) * u + x(4));
numerator = u .^ 2 + x0(2) * u;
denominator = u .^ 2 + x0(3) * u + x0(4);
J_hand = [-numerator ./ denominator, -x0(1) * u ./ denominator, ...
          x0(1) * numerator .* u ./ denominator .^ 2, x0(1) * numerator ./ denominator .^ 2];

r = residual(fmad(x0, eye(4)));
fmadtest_check(getvalue(r), residual(x0), 1e-15, 'residual value');
fmadtest_check(getinternalderivs(r), J_hand, 1e-14, 'Jacobian vs hand');
fmadtest_check(getinternalderivs(r), fd_jacobian(residual, x0), 1e-7, ...
               'Jacobian vs central differences');

% The shared scalar-loop residual (tests/octave/problems), which fills a
% plain zeros(11, 1) element by element.
r_loop = enzyme_residual(fmad(x0, eye(4)));
fmadtest_check(getvalue(r_loop), residual(x0), 1e-15, 'scalar-loop residual value');
fmadtest_check(getinternalderivs(r_loop), J_hand, 1e-14, 'scalar-loop Jacobian');

% Gauss-Newton quantities and the exact Hessian of 0.5 * ||f||^2.
objective = @(x) 0.5 * sum(residual(x) .^ 2);
h = objective(fmad(fmad(x0, eye(4)), eye(4)));
gradient = getinternalderivs(getvalue(h))';
fmadtest_check(gradient, J_hand' * residual(x0), 1e-14, 'gradient = J''f');
H = full(getinternalderivs(getinternalderivs(h)));
gradient_at = @(x) (getinternalderivs(objective(fmad(x, eye(4)))))';
fmadtest_check(H, fd_jacobian(gradient_at, x0), 1e-7, 'Hessian vs differences of the gradient');
