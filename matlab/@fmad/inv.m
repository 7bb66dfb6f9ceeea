function y = inv(x)
%INV  Matrix inverse of an fmad object: d(inv(A)) = -inv(A) dA inv(A).
  yv = inv(x.value);
  n = size(yv, 1);
  y = x;
  y.value = yv;
  y.derivs = -product_tangent_right(yv, product_tangent_left(x.derivs, n, n, yv), n, n);
end
