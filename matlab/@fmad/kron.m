function z = kron(a, b)
%KRON  Kronecker product with fmad objects (either or both active).
  [av, ad, a_active] = parts(a);
  [bv, bd, b_active] = parts(b);
  zv = kron(av, bv);
  % Element (p, q) of kron(A, B) is A(p) * B(q): derivatives by the product
  % rule on the index maps of both factors.
  a_index = kron(reshape(1:numel(av), size(av)), ones(size(bv)));
  b_index = kron(ones(size(av)), reshape(1:numel(bv), size(bv)));
  d = [];
  if a_active
    d = scale_rows(take(bv, b_index(:)), take(ad, a_index(:), ':'));
  end
  if b_active
    db = scale_rows(take(av, a_index(:)), take(bd, b_index(:), ':'));
    if a_active
      d = d + db;
    else
      d = db;
    end
  end
  if a_active
    z = with_parts(a, zv, d);
  else
    z = with_parts(b, zv, d);
  end
end
