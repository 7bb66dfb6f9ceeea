function d = product_tangent_right(a, db, k, n)
% Derivatives of A*B for a fixed m x k matrix A and a varying k x n matrix
% B with derivatives DB ((k*n) x nd): column j is vec(A * dB_j). All
% directions are one product with the k x (n*nd) reshaped derivatives.
  if n == 1
    d = a * db;
  else
    nd = size(db, 2);
    d = reshape(a * reshape(db, k, n * nd), [], nd);
  end
end
