function y0 = brusselator_init(N)
% BRUSSELATOR_INIT  Initial state of the 1-D Brusselator on N interior points.
%   y0 = brusselator_init(N) is the column [u1 v1 ... uN vN].' with
%   u_i = 1 + sin(2 pi x_i), v_i = 3, x_i = i/(N+1).
  x = (1:N).' / (N + 1);
  y0 = zeros(2*N, 1);
  y0(1:2:end) = 1 + sin(2*pi*x);
  y0(2:2:end) = 3;
end
