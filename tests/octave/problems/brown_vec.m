function f = brown_vec(x)
% BROWN_VEC  Brown function without loops: the same function as brown_fun, one array operation per
%   term (the reverse-mode tape holds general steps with array values instead of scalar steps).
  a = x(1:end-1).^2;
  b = x(2:end).^2;
  f = sum(a.^(b + 1) + b.^(a + 1));
end
