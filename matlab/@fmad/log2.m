function [y, e] = log2(x)
%LOG2  Base-2 logarithm of an fmad object; [f, e] = log2(x) splits x into
%   f .* 2.^e with 0.5 <= abs(f) < 1 (e is a constant, so df = dx ./ 2.^e).
  if nargout < 2
    y = unary_chain(x, log2(x.value), 1 ./ (log(2) * x.value));
  else
    [~, e] = log2(base_value(x));
    y = x ./ 2 .^ e;                 % exact: a division by a power of 2
  end
end
