function worst = jacobian_difference(J, Jref)
% JACOBIAN_DIFFERENCE  Largest relative difference between two Jacobians (sparse-friendly).
%   Entry (i,j) is judged against max(|Jref(i,j)|, 1e-3 * max|Jref(i,:)|), the metric
%   of tests/octave/helpers/check_jacobian (finite differences cannot resolve entries
%   far below their row's scale), without densifying: Jacobians of 10^5 unknowns fit.
%   A gradient may be given as a row or a column. NaN counts as Inf.
  if isvector(J) && isvector(Jref) && numel(J) == numel(Jref)
    J = reshape(J, size(Jref));
  end
  if ~isequal(size(J), size(Jref))
    worst = Inf;
    return;
  end
  [i, j, difference] = find(J - Jref);
  if isempty(difference)
    worst = 0;
    return;
  end
  rowScale = full(max(abs(Jref), [], 2));
  reference = full(abs(Jref(sub2ind(size(Jref), i, j))));
  floor = max(eps * max(rowScale), realmin);
  relative = abs(difference) ./ max(max(reference, 1e-3 * rowScale(i)), floor);
  if any(isnan(relative))
    worst = Inf;
  else
    worst = full(max(relative));
  end
end
