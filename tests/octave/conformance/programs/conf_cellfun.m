function y = conf_cellfun(x)
% conformance: handles scalar row col mat empty00
% cellfun and arrayfun with several outputs, cells of results, per-element closures and accumarray.
  c = num2cell(x);
  [lo, hi] = cellfun(@(v) deal(v - 1, v + 1), c);
  parts = arrayfun(@(v) v * ones(1, 2), x, 'UniformOutput', false);
  widths = cellfun('length', parts);
  total = 0;
  for j = 1:numel(parts)
    total = total + sum(parts{j});
  end
  [m, where] = cellfun(@max, {x(:); [x(:); 7]; 2});
  counts = accumarray(ceil(abs(x(:))) + 1, 1);
  y = [lo(:); hi(:); widths(:); total; m(:); where(:); counts(:)];
end
