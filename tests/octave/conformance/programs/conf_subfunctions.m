function y = conf_subfunctions(x)
% conformance: program scalar row col mat
% Subfunctions with several outputs and early return.
  [a, b] = split_signs(x);
  y = scale(a, 2) - scale(b, 3);
end

function [pos, neg] = split_signs(x)
  pos = x .* (x > 0);
  neg = -x .* (x < 0);
end

function y = scale(x, k)
  y = x;
  if k == 2
    y = 2 * x;
    return;
  end
  y = y * k;
end
