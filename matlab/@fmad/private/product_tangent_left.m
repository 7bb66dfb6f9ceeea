function d = product_tangent_left(da, m, k, b)
% Derivatives of A*B for a varying m x k matrix A with derivatives DA
% ((m*k) x nd) and a fixed k x n matrix B: column j is vec(dA_j * B).
  if m == 1
    d = b.' * da;                    % a row times B: rows of dA are dA_j.'
  else
    d = kron(b.', speye(m)) * da;    % vec(dA_j B) = kron(B.', I) vec(dA_j)
  end
end
