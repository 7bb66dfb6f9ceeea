function s = conf_do_until(x)
% conformance: program scalar row col mat empty00 nd3 special
% do ... until: the body runs once before the test; continue jumps to the test, break leaves.
  s = 0;
  k = 0;
  do
    k++;
    if k > numel(x)
      break;
    end
    if x(k) < 0
      continue;
    end
    s = s + x(k) * k;
  until k >= 5 || s > 10
  s = [s, k];
end
