function r = conf_size_outputs(x)
% conformance: program scalar row col mat empty00 empty03 nd3
% size with one, two and three outputs.
  [m, n] = size(x);
  [a, b, c] = size(x);
  [p] = size(x);
  r = [m, n, a, b, c, numel(p)];
end
