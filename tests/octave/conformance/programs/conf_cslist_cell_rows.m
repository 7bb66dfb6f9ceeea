function y = conf_cslist_cell_rows(x)
% conformance: cslist scalar row col mat
% Cell literal rows spread by cs-lists to equal widths ({c{:}; 1, 2}), later rows a cs-list leaves
% empty skipped, and Octave's error (as character codes) when the widths differ.
  c = {x(1), x(end)};
  e = {};
  d = {c{:}; 3, 4};
  f = {1, 2; e{:}; c{:}};
  g = {e{:}; e{:}};
  y = [d{:}, size(d), f{:}, size(f), size(g), size({e{:}})];
  try
    h = {c{:}; 3};
    y = [y, numel(h)];
  catch err
    y = [y, double(err.message)];
  end
end
