function d = scale_rows(s, d)
% Chain rule for elementwise operations: row i of the derivative matrix D
% times S(i), where S is a scalar or has one entry per row. A factor that is
% itself an fmad object (nested, for second derivatives) is always applied,
% whatever its value: its own derivatives matter even where it equals 1.
  nested = isa(s, 'fmad');
  if numel(s) == 1 && ~nested && s == 1
    return
  end
  unbounded = ~isfinite(s);          % a logical array also for an fmad S
  if ~any(unbounded(:)) || issparse(d)
    independent = [];
  else
    % An infinite factor (sqrt at 0) must leave zero entries zero: the
    % function does not depend on those directions, and Inf * 0 is NaN.
    % (Sparse products skip structural zeros by themselves.)
    independent = (base_value(d) == 0) & reshape(unbounded, [], 1);
  end
  if numel(s) == 1
    d = s * d;
  elseif nested || isa(d, 'fmad')
    d = reshape(s, [], 1) .* d;
  elseif issparse(d) || issparse(s)
    % Octave does not broadcast with sparse operands.
    m = numel(s);
    d = sparse(1:m, 1:m, full(s(:)), m, m) * d;
  else
    d = s(:) .* d;
  end
  if ~isempty(independent)
    d = put(d, 0, independent);
  end
end
