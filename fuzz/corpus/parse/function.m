function [y, J] = f(x, ~)
  y = x.^2 + [1 -2]';
  if y(end) > 0 && ~isempty(x), y(1,:) = []; end
end
