function d = scale_rows(s, d)
% Chain rule for elementwise operations: row i of the derivative matrix D
% times S(i), where S is a scalar or has one entry per row.
  if numel(s) == 1
    if s ~= 1
      d = s * d;
    end
  elseif isa(s, 'fmad') || isa(d, 'fmad')
    d = reshape(s, [], 1) .* d;
  elseif issparse(d)
    % Octave does not broadcast with sparse operands.
    m = numel(s);
    d = sparse(1:m, 1:m, s(:), m, m) * d;
  else
    d = s(:) .* d;
  end
end
