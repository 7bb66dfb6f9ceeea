function y = conf_grow(x)
% conformance: program scalar row col mat empty00 special
% An array grown by assignment past its end.
  y = [];
  for k = 1:numel(x)
    y(end + 1) = 2 * x(k);
  end
  z = zeros(2, 0);
  z(:, end + 1) = [numel(x); 1];
  y = [y, z(:).'];
end
