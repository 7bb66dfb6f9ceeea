function y = conf_cslist_assign(x)
% conformance: cslist scalar row col mat
% Cs-lists as assignment targets: [c{i}] = ..., [s.f] = ..., [a, b] = c{:}, and varargout.
  c = num2cell(x);
  [c{1:2}] = deal(-1, -2);
  s = struct('f', {1, 2, 3});
  [s.f] = deal(sum(x(:)));
  [a, b] = c{1:2};
  [q.a, q.b] = deal(x(1), 4);
  [r{1:3}] = size(x);
  [m, k] = forward_max(x);
  [u, v, w] = several(x);
  only = several(x);
  y = [c{:}, s.f, a, b, q.a, q.b, r{:}, m, k, u, v, w, only];
end

function varargout = forward_max(x)
  [varargout{1:nargout}] = max(x(:));
end

function [u, varargout] = several(x)
  u = nargout;
  varargout = {x(1) * 2, x(end) * 5};
end
