function y0 = burgers_init(N)
% BURGERS_INIT  Initial state [u; x] of the moving-mesh Burgers problem.
%   Uniform mesh x_i = i/(N+1), u_i = sin(2 pi x_i) + sin(pi x_i)/2.
  x = (1:N).' / (N + 1);
  u = sin(2*pi*x) + sin(pi*x) / 2;
  y0 = [u; x];
end
