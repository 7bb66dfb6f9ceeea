function fmadtest_check(actual, expected, rel_tol, what)
% Errors unless ACTUAL matches EXPECTED (same size, relative Frobenius error
% at most REL_TOL, measured against max(norm(EXPECTED), 1)).
  if ~isequal(size(actual), size(expected))
    error('fmadtest:size', '%s: size %s, expected %s', what, ...
          mat2str(size(actual)), mat2str(size(expected)));
  end
  err = norm(full(double(actual(:))) - full(double(expected(:)))) ...
        / max(norm(full(double(expected(:)))), 1);
  if ~(err <= rel_tol)
    error('fmadtest:mismatch', '%s: relative error %g exceeds %g', what, err, rel_tol);
  end
end
