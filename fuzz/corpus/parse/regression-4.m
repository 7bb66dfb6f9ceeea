func= x.^2 + [0 -2]';
  (end)> 0 && ~isnd
