function y = conf_cslist_struct(x)
% conformance: cslist scalar row col mat empty00
% Struct arrays from struct() with cell values: s.f as a cs-list in [ ], { } and calls; s(k) indexing.
  s = struct('f', num2cell(x), 'g', 2);
  vals = [s.f];
  cells = {s.f};
  g = [s.g];
  both = struct('a', {1, 2}, 'b', {x});
  last = 0;
  if numel(s) > 0
    t = s(end);
    last = t.f + sum([s(1:end).g]);
  end
  y = [vals(:); numel(cells); g(:); size(s)'; numel(both); both(2).a; last; numel(fieldnames(s))];
end
