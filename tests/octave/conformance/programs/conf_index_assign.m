function y = conf_index_assign(x)
% conformance: program scalar row col mat square nd3 special
% Indexed assignment: shifts, masks, whole columns, scalar broadcast.
  y = zeros(size(x));
  y(2:end) = x(1:end-1);
  y(x > 0) = -1;
  y(:, 1) = 7;
  y(end) = x(1) + 1;
  w = x;
  w(1, :) = [];
  y = [y(:); w(:)];
end
