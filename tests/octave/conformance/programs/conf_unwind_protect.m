function r = conf_unwind_protect(x)
% conformance: program scalar row col
% unwind_protect: the cleanup runs after the body and, when the body fails, before its error
% leaves the function (seen here by a try around the call).
  r = with_cleanup(x, 1);
  try
    with_cleanup(x, 2);
  catch err
    r = [r double(err.identifier) double(err.message)];
  end
  for k = 1:3
    unwind_protect
      r(end + 1) = k * x(1);
    unwind_protect_cleanup
      r(end + 1) = -k;
    end_unwind_protect
  end
end

function y = with_cleanup(x, mode)
  y = 0;
  unwind_protect
    y = sum(x);
    if mode == 2
      error('with_cleanup:fail', 'failed with %d', numel(x));
    end
  unwind_protect_cleanup
    y = y + 1;
  end_unwind_protect
end
