function y = conf_cslist_end(x)
% conformance: cslist scalar row
% `end` beside a cs-list counts the subscripts as written, as in Octave (m(two{:}, end) is out of bound).
  m = reshape(1:24, 2, 3, 4) + x(1);
  one = {2};
  two = {1, 2};
  p.k = 2;
  y = [m(one{:}, end), m(p.k, 1, end)];
  try
    z = m(two{:}, end);
    y = [y, z];
  catch err
    y = [y, numel(err.message)];
  end
end
