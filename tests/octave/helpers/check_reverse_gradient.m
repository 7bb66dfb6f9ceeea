function check_reverse_gradient(fun, x, J, label)
% CHECK_REVERSE_GRADIENT  The reverse-mode gradient of a weighted sum of fun's elements, w' * fun(x)
%   with w = cos(1:numel(f))', equals w' * J (J the forward Jacobian at x): the dot-product test.
  w = cos(1:size(J, 1))';
  [~, g] = msad_eval(@(x) sum(w .* reshape(fun(x), [], 1)), x, struct('mode', 'reverse'));
  check_value(g, (w' * J)', 1e-12, [label, ' reverse gradient']);
end
