function worst = check_jacobian(J, Jref, tol, label)
% CHECK_JACOBIAN  Throw unless J matches the reference Jacobian Jref within tol.
%   worst = check_jacobian(J, Jref, tol, label) compares entry by entry with
%   the relative error |J - Jref| / max(|Jref|, 1e-3 * rowmax), where rowmax
%   is the largest |Jref| in that row: finite differences cannot resolve
%   entries far below their row's scale, so those are judged against 1e-3 of
%   it. NaN anywhere counts as infinite error. Sparse inputs are accepted.
%   On failure the error (id check_jacobian:mismatch) names the worst entry.
  if nargin < 4
    label = 'Jacobian';
  end
  if ~isequal(size(J), size(Jref))
    error('check_jacobian:size', '%s: size %s, expected %s', label, ...
          mat2str(size(J)), mat2str(size(Jref)));
  end
  J = full(double(J));
  Jref = full(double(Jref));
  if isempty(J)
    worst = 0;
    return;
  end
  rowScale = max(abs(Jref), [], 2);
  % Guards rows of Jref that are entirely zero: compare them absolutely.
  absoluteFloor = max(eps * max(rowScale), realmin);
  denominator = max(max(abs(Jref), 1e-3 * rowScale), absoluteFloor);
  relativeError = abs(J - Jref) ./ denominator;
  relativeError(isnan(relativeError)) = Inf;
  [worst, k] = max(relativeError(:));
  if worst > tol
    [i, j] = ind2sub(size(J), k);
    error('check_jacobian:mismatch', ...
          '%s: relative error %.3g > tol %.3g, worst at (%d,%d): got %.17g, expected %.17g', ...
          label, worst, tol, i, j, J(i, j), Jref(i, j));
  end
end
