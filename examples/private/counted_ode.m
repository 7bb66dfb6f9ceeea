function wrapped = counted_ode(fun, name)
% COUNTED_ODE  fun(t, y) that adds one to call_count(name) per call.
%   Keeps the two-input form: Octave's ode15s requires nargin == 2 of a
%   Jacobian handle. Only for functions far costlier than the extra call
%   (a Jacobian): wrapping a cheap rhs would distort the timings.
  wrapped = @(t, y) count_then_call(fun, name, t, y);
end

function value = count_then_call(fun, name, t, y)
  call_count(name, 1);
  value = fun(t, y);
end
