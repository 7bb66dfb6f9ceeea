function F = broyden_banded_loops(x)
% BROYDEN_BANDED_LOOPS  Broyden banded function with scalar loops, R^n -> R^n.
%   F_i = x_i (2 + 5 x_i^2) + 1 - sum_{j in J_i} x_j (1 + x_j),
%   J_i = {j ~= i : max(1, i-5) <= j <= min(n, i+1)}. Standard start: x_i = -1.
  n = numel(x);
  F = zeros(size(x));
  for i = 1:n
    coupling = 0;
    for j = max(1, i - 5):min(n, i + 1)
      if j ~= i
        coupling = coupling + x(j) * (1 + x(j));
      end
    end
    F(i) = x(i) * (2 + 5*x(i)^2) + 1 - coupling;
  end
end
