function n = conf_while(x)
% conformance: program scalar zero row col mat
% A while loop halving until small, with break and continue.
  v = sum(abs(x(:))) + 1;
  n = 0;
  while true
    v = v / 2;
    n = n + 1;
    if v < 1e-3
      break;
    end
    if mod(n, 2) == 0
      continue;
    end
    n = n + 0.5;
  end
end
