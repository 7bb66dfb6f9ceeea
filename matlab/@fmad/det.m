function y = det(x)
%DET  Determinant of an fmad object: d(det A) = det(A) trace(inv(A) dA).
  dv = det(x.value);
  y = x;
  y.value = dv;
  y.derivs = dv * (reshape(inv(x.value).', 1, []) * x.derivs);
end
