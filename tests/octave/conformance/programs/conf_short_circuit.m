function r = conf_short_circuit(x)
% conformance: program scalar zero row empty00
% && and || skip their right side; elementwise & on arrays in if.
  r = 0;
  if isempty(x) || x(1) > 0
    r = r + 1;
  end
  if ~isempty(x) && all(x(:) ~= 0)
    r = r + 10;
  end
  if x
    r = r + 100;
  end
end
