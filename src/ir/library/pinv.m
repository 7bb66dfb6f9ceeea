function X = pinv(A)
% PINV  Pseudo-inverse of a full-rank matrix, written for msad: mldivide's least-squares (tall A) or
%   minimum-norm (wide A) solution against the identity, differentiated through it. A rank-deficient
%   A is msad:unsupported (Octave truncates its small singular values, which has no derivative).
  if nargin ~= 1
    print_usage();
  end
  if ~any(A(:))
    % Octave's pseudo-inverse of a zero (or empty) matrix: zeros.
    X = zeros(columns(A), rows(A));
  else
    X = A \ eye(rows(A));
  end
end
