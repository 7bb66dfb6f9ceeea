function r = conf_try_stack(x)
% conformance: program scalar row
% err.stack: the innermost frame names the subfunction as file>name, with its line.
  try
    helper(x);
    r = 0;
  catch err
    s = err.stack;
    r = sprintf('%s:%d', s(1).name, s(1).line);
  end
end

function helper(x)
  y = x + 1;
  z = y(7);
end
