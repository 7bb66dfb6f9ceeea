function y = unary_chain(x, value, partial)
% Result of an elementwise function of X: VALUE = f(X), PARTIAL = f'(X).
  y = x;
  y.value = value;
  y.derivs = scale_rows(partial, x.derivs);
end
