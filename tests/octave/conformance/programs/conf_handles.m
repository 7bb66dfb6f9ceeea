function y = conf_handles(x)
% conformance: handles scalar row col mat
% Handles made in the code: captures taken when the handle is made, handles to subfunctions and
% builtins, handles passed to and returned from functions, several outputs through a handle.
  k = 3;
  scale = @(v) k * v;
  k = 5;
  twice = @(f, v) f(f(v));
  y = scale(x) + twice(@halve, x) + apply_each(@sin, x) + k;
  [m, i] = max_of(@max, x(:));
  y = [y(:); m; i; numel(func2str(scale))];
  g = make_affine(2, -1);
  y = [y; g(x(:))];
  fs = {@cos, @(v) v .^ 2, @halve};
  for j = 1:numel(fs)
    y = [y; fs{j}(x(:))];
  end
end

function v = halve(v)
  v = v / 2;
end

function y = apply_each(f, x)
  y = zeros(size(x));
  for j = 1:numel(x)
    y(j) = f(x(j));
  end
end

function [m, i] = max_of(f, v)
  [m, i] = f(v);
end

function g = make_affine(a, b)
  g = @(v) a * v + b;
end
