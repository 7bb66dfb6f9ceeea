% Second derivatives by nesting, x = fmad(fmad(x0, I), I): value, gradient
% and Hessian of scalar functions against hand formulas.
fmadtest_setup;
x0 = [0.3; -0.8; 1.1; 0.5];
n = numel(x0);
x = fmad(fmad(x0, eye(n)), eye(n));

% Extended Rosenbrock: sum 100 (x_{2i} - x_{2i-1}^2)^2 + (1 - x_{2i-1})^2
odd = x0(1:2:end);
even = x0(2:2:end);
y = sum(100 * (x(2:2:end) - x(1:2:end) .^ 2) .^ 2 + (1 - x(1:2:end)) .^ 2);
g_hand = zeros(n, 1);
g_hand(1:2:end) = -400 * odd .* (even - odd .^ 2) - 2 * (1 - odd);
g_hand(2:2:end) = 200 * (even - odd .^ 2);
H_hand = zeros(n);
for i = 1:2:n
  H_hand(i, i) = 1200 * x0(i)^2 - 400 * x0(i+1) + 2;
  H_hand(i, i+1) = -400 * x0(i);
  H_hand(i+1, i) = -400 * x0(i);
  H_hand(i+1, i+1) = 200;
end
fmadtest_check(getvalue(getvalue(y)), ...
               sum(100 * (even - odd .^ 2) .^ 2 + (1 - odd) .^ 2), 1e-15, 'Rosenbrock value');
fmadtest_check(getinternalderivs(getvalue(y)), g_hand', 1e-14, 'Rosenbrock gradient (inner)');
fmadtest_check(getvalue(getinternalderivs(y)), g_hand', 1e-14, 'Rosenbrock gradient (outer)');
fmadtest_check(full(getinternalderivs(getinternalderivs(y))), H_hand, 1e-14, 'Rosenbrock Hessian');

% f = exp(a'x) + (x'Bx)/2 + sin(x1 x2) / x3 + sqrt(x4): matrix products,
% division, indexing and elementary functions on nested objects.
a = [0.5; -0.2; 0.1; 0.3];
B = [4 1 0 0; 1 3 1 0; 0 1 2 1; 0 0 1 5];
f = @(x) exp(a' * x) + x' * B * x / 2 + sin(x(1) * x(2)) / x(3) + sqrt(x(4));
y = f(x);
e = exp(a' * x0);
s = x0(1) * x0(2);
c = cos(s) / x0(3);
q = sin(s) / x0(3);
H_hand = e * (a * a') + B ...
         + [-x0(2)^2 * q,         c - s * q,            -x0(2) * c / x0(3), 0;
            c - s * q,            -x0(1)^2 * q,         -x0(1) * c / x0(3), 0;
            -x0(2) * c / x0(3),   -x0(1) * c / x0(3),   2 * q / x0(3)^2,    0;
            0,                    0,                    0,                  -0.25 * x0(4)^(-1.5)];
H = full(getinternalderivs(getinternalderivs(y)));
fmadtest_check(getvalue(getvalue(y)), f(x0), 1e-15, 'value');
fmadtest_check(H, H_hand, 1e-13, 'Hessian vs hand formula');
fmadtest_check(H, H', 1e-15, 'Hessian symmetry');
gradient = @(x) (getinternalderivs(f(fmad(x, eye(n)))))';
fmadtest_check(H, fd_jacobian(gradient, x0), 1e-7, 'Hessian vs differences of the gradient');

% Nested objects through a\b, max, norm and a preallocated loop.
g = @(x) sum((B \ x) .^ 2) + max(x) * norm(x);
y = g(x);
Hg = full(getinternalderivs(getinternalderivs(y)));
gradient_g = @(x) (getinternalderivs(g(fmad(x, eye(n)))))';
fmadtest_check(Hg, fd_jacobian(gradient_g, x0), 1e-7, 'Hessian through \ max norm');
v = zeros(n, 1, 'like', x);
for i = 1:n
  v(i) = x(i)^3;
end
Hv = full(getinternalderivs(getinternalderivs(sum(v))));
fmadtest_check(Hv, diag(6 * x0), 1e-14, 'Hessian of a loop-filled array');
