function J = arrowhead_jacobian(x)
% ARROWHEAD_JACOBIAN  Hand-coded sparse Jacobian of arrowhead_residual.
  n = numel(x);
  k = (1:n-1)';
  J = sparse([k; k; n*ones(n, 1)], [k; n*ones(n-1, 1); (1:n)'], ...
             [2*x(k) - 1; 2*x(n)*ones(n-1, 1); 3*x.^2], n, n);
end
