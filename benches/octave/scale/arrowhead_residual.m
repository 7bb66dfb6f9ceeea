function F = arrowhead_residual(x)
% ARROWHEAD_RESIDUAL  Residuals whose Jacobian is an arrowhead: rows 1..n-1 read x(i) and x(n),
% row n reads every x (issue #26's bidirectional colouring benchmark).
  F = [x(1:end-1).^2 + x(end)^2 - x(1:end-1); sum(x.^3)];
end
