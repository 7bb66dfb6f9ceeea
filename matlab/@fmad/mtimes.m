function z = mtimes(a, b)
%MTIMES  Matrix product a * b with fmad objects.
  if numel(a) == 1 || numel(b) == 1
    z = binary_elementwise(a, b, 'times');
    return
  end
  [av, ad, a_active] = parts(a);
  [bv, bd, b_active] = parts(b);
  zv = av * bv;
  [m, k] = size(av);
  n = size(bv, 2);
  if a_active
    d = product_tangent_left(ad, m, k, bv);
    if b_active
      d = d + product_tangent_right(av, bd, k, n);
    end
    z = with_parts(a, zv, d);
  else
    z = with_parts(b, zv, product_tangent_right(av, bd, k, n));
  end
end
