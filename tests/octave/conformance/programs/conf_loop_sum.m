function s = conf_loop_sum(x)
% conformance: program scalar row col mat empty00 nd3 special
% A loop over elements with a branch on their sign.
  s = 0;
  for k = 1:numel(x)
    if x(k) > 0
      s = s + x(k)^2;
    elseif x(k) < 0
      s = s - x(k);
    else
      s = s + 1;
    end
  end
end
