function d = scale_rows(s, d)
% Chain rule for elementwise operations: row i of the derivative matrix D
% times S(i), where S is a scalar or has one entry per row. A factor that is
% itself an fmad object (nested, for second derivatives) is always applied,
% whatever its value: its own derivatives matter even where it equals 1.
% An infinite factor (sqrt at 0) leaves zero entries zero: the function
% does not depend on those directions, and Inf * 0 would be NaN.
% This is the hot path of every fmad operation: each builtin call or
% operator costs microseconds in Octave, so the common cases come first.
  if numel(s) == 1
    if s ~= 1 || isa(s, 'fmad')
      if isfinite(s)
        d = s * d;
      else
        d = scale_keeping_zeros(s, d);
      end
    end
  elseif isa(s, 'fmad')
    unbounded = ~isfinite(s);        % a logical array (fmad's isfinite)
    if any(unbounded(:))
      d = scale_keeping_zeros(s, d);
    else
      d = reshape(s, [], 1) .* d;
    end
  elseif issparse(d)
    % Octave does not broadcast with sparse operands; the product skips
    % structural zeros by itself.
    m = numel(s);
    d = sparse(1:m, 1:m, full(s(:)), m, m) * d;
  elseif all(isfinite(s))            % (for a matrix, if tests every column)
    d = full(s(:)) .* d;             % (a sparse S would not broadcast)
  else
    d = scale_keeping_zeros(s, d);
  end
end

function d = scale_keeping_zeros(s, d)
  independent = (base_value(d) == 0) & reshape(~isfinite(s), [], 1);
  d = reshape(full(s), [], 1) .* d;
  d = put(d, 0, independent);
end
