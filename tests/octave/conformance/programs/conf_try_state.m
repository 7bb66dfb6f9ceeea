function r = conf_try_state(x)
% conformance: program scalar row col
% Errors inside loops inside try and try inside loops: break, continue, the state the catch sees.
  total = 0;
  count = 0;
  for k = 1:numel(x) + 2
    try
      count = count + 1;
      total = total + x(k);
      if total > 100, break; end
    catch
      total = total - 1;
      continue
    end
    total = total * 1.5;
  end
  k = 0;
  try
    while x(k + 1) > -100
      k = k + 1;
    end
  catch e
    k = -k;
  end
  r = [total count k];
end
