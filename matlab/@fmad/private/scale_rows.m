function d = scale_rows(s, d)
% Chain rule for elementwise operations: row i of the derivative matrix D
% times S(i), where S is a scalar or has one entry per row.
  if numel(s) == 1
    d = s * d;
  elseif issparse(d) && ~isa(s, 'fmad') && ~isa(d, 'fmad')
    % Octave does not broadcast with sparse operands.
    m = numel(s);
    d = sparse(1:m, 1:m, s(:), m, m) * d;
  else
    d = reshape(s, [], 1) .* d;
  end
end
