% Elementary functions and elementwise operators against hand derivatives
% (exact formulas) and central differences; inactive functions (sign,
% comparisons, logical operators) return plain values.
fmadtest_setup;
x0 = [0.3; -0.45; 0.7];
n = numel(x0);
x = fmad(x0, eye(n));
cases = {
  'sqrt',  @(t) sqrt(t + 1),      @(t) 0.5 ./ sqrt(t + 1)
  'exp',   @exp,                  @exp
  'log',   @(t) log(t + 2),       @(t) 1 ./ (t + 2)
  'log10', @(t) log10(t + 2),     @(t) 1 ./ ((t + 2) * log(10))
  'sin',   @sin,                  @cos
  'cos',   @cos,                  @(t) -sin(t)
  'tan',   @tan,                  @(t) 1 ./ cos(t) .^ 2
  'asin',  @asin,                 @(t) 1 ./ sqrt(1 - t .^ 2)
  'acos',  @acos,                 @(t) -1 ./ sqrt(1 - t .^ 2)
  'atan',  @atan,                 @(t) 1 ./ (1 + t .^ 2)
  'sinh',  @sinh,                 @cosh
  'cosh',  @cosh,                 @sinh
  'tanh',  @tanh,                 @(t) 1 ./ cosh(t) .^ 2
  'abs',   @abs,                  @sign
  'uminus', @(t) -t,              @(t) -ones(size(t))
  'uplus', @(t) +t,               @(t) ones(size(t))
  'power (constant exponent)', @(t) t .^ 3,   @(t) 3 * t .^ 2
  'power (constant base)',     @(t) 2 .^ t,   @(t) log(2) * 2 .^ t
  'power (both)',  @(t) (t + 1) .^ (t + 2),   @(t) (t + 1) .^ (t + 2) .* (log(t + 1) + (t + 2) ./ (t + 1))
  'rdivide',       @(t) 1 ./ (t + 2),         @(t) -1 ./ (t + 2) .^ 2
  'ldivide',       @(t) (t + 2) .\ t,         @(t) 2 ./ (t + 2) .^ 2
  'times',         @(t) t .* t,               @(t) 2 * t
  'minus',         @(t) 1 - t,                @(t) -ones(size(t))
};
for k = 1:size(cases, 1)
  [name, f, df] = cases{k, :};
  y = f(x);
  fmadtest_check(getvalue(y), f(x0), 1e-15, [name ' value']);
  fmadtest_check(getinternalderivs(y), diag(df(x0)), 1e-14, [name ' vs hand derivative']);
  fmadtest_check(getinternalderivs(y), fd_jacobian(f, x0), 1e-7, [name ' vs central differences']);
end

% Two-argument functions of two active arguments.
[a, b] = deal(x(1), x(2));
y = [atan2(a, b); hypot(a, b); (a + 1) ^ (b + 2); a / b; b \ a];
r2 = x0(1)^2 + x0(2)^2;
hand = [x0(2)/r2, -x0(1)/r2, 0;
        x0(1)/sqrt(r2), x0(2)/sqrt(r2), 0;
        (x0(2)+2)*(x0(1)+1)^(x0(2)+1), (x0(1)+1)^(x0(2)+2)*log(x0(1)+1), 0;
        1/x0(2), -x0(1)/x0(2)^2, 0;
        1/x0(2), -x0(1)/x0(2)^2, 0];
fmadtest_check(getinternalderivs(y), hand, 1e-14, 'atan2, hypot, power, / and \ of two active scalars');
z = fmad(0, 1) .^ fmad(2, 1);               % 0^2: the log(0) term must vanish
fmadtest_check(getinternalderivs(z), 0, 0, 'd(0^b)/db at b = 2');

% Inactive functions return doubles/logicals of the value.
checks = {sign(x), sign(x0); x > 0, x0 > 0; x <= x0(2), x0 <= x0(2); x == x0', x0 == x0';
          x ~= 0.3, x0 ~= 0.3; x >= 0 & x < 0.5, x0 >= 0 & x0 < 0.5; ~(x > 0) | x > 0.5, ~(x0 > 0) | x0 > 0.5;
          floor(10 * x), floor(10 * x0); isnan(x ./ 0 * 0), isnan(x0 ./ 0 * 0); any(x > 0.5), any(x0 > 0.5)};
for k = 1:size(checks, 1)
  if isa(checks{k, 1}, 'fmad') || ~isequal(checks{k, 1}, checks{k, 2})
    error('inactive function %d gave a wrong or active result', k);
  end
end
if ~(x(1) > 0)                               % comparisons drive control flow
  error('comparison of an fmad scalar did not give true');
end
