function x = mldivide(a, b)
%MLDIVIDE  Linear solve a \ b with fmad objects (a square when active).
%   With a fixed, one solve handles the value and all derivative columns.
  if numel(a) == 1
    x = binary_elementwise(b, a, 'rdivide');
    return
  end
  [av, ad, a_active] = parts(a);
  [bv, bd, b_active] = parts(b);
  [k, n] = size(bv);
  if ~a_active
    if isa(bv, 'double') && isa(bd, 'double') && ~issparse(bv) && ~issparse(bd)
      nd = size(bd, 2);
      solution = av \ [bv, reshape(bd, k, n * nd)];
      xv = solution(:, 1:n);
      d = reshape(solution(:, n+1:end), [], nd);
    else
      xv = av \ bv;
      d = solve_directions(av, bd, k, n);
    end
    x = with_parts(b, xv, d);
    return
  end
  if size(av, 1) ~= size(av, 2)
    unsupported('mldivide (a \ b)', 'least squares: a is active and not square');
  end
  xv = av \ bv;
  % A x = b  =>  A dx = db - dA x
  rhs = -product_tangent_left(ad, k, k, xv);
  if b_active
    rhs = bd + rhs;
  end
  x = with_parts(a, xv, solve_directions(av, rhs, k, n));
end

function d = solve_directions(a, rhs, k, n)
  % A \ dB_j for every direction j at once.
  nd = size(rhs, 2);
  d = reshape(a \ reshape(rhs, k, n * nd), [], nd);
end
