function r = conf_find_outputs(x)
% conformance: program scalar row col mat empty00 empty03 nd3 special
% find with two and three outputs, stacked into one column.
  [i, j] = find(x);
  [p, q, v] = find(x > 0);
  [a, b, c] = find(x, 2);
  r = [i(:); j(:); p(:); q(:); v(:); a(:); b(:); c(:)];
end
