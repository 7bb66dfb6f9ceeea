% fmad with a full identity seed: Jacobian of a small vector function
% against the hand-written Jacobian and central differences; value,
% internal and external derivative forms.
fmadtest_setup;
f = @(x) [x(1)^2 * x(2); sin(x(2)) + x(3) / x(1); exp(x(1) * x(3)) - sqrt(x(2))];
hand = @(x) [2*x(1)*x(2),               x(1)^2,               0;
             -x(3)/x(1)^2,              cos(x(2)),            1/x(1);
             x(3)*exp(x(1)*x(3)),       -0.5/sqrt(x(2)),      x(1)*exp(x(1)*x(3))];
x0 = [0.7; 1.3; -0.4];

y = f(fmad(x0, eye(3)));
J = getinternalderivs(y);
fmadtest_check(getvalue(y), f(x0), 1e-15, 'value');
fmadtest_check(J, hand(x0), 1e-14, 'Jacobian vs hand');
fmadtest_check(J, fd_jacobian(f, x0), 1e-7, 'Jacobian vs central differences');
if issparse(J)
  error('full seed gave sparse derivatives');
end

% External form: value's size plus a trailing dimension for the directions.
D = getderivs(y);
fmadtest_check(D, reshape(hand(x0), [3 1 3]), 1e-14, 'getderivs external form');

% Row-vector input and a single direction shaped like the value.
r = fmad(x0', [1 0 0]);
g = r(1) * r(2) + r(3)^3;
fmadtest_check(getinternalderivs(g), x0(2), 1e-15, 'single direction');
fmadtest_check(getderivs(g), x0(2), 1e-15, 'single direction external form');
