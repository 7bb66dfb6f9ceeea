function z = conf_grids(x)
% conformance: program scalar row col
% meshgrid and ndgrid with two outputs, and linspace.
  t = linspace(0, 1, 3);
  [X, Y] = meshgrid(x, t);
  [A, B] = ndgrid(x, t);
  z = [X(:); Y(:); A(:); B(:)];
end
