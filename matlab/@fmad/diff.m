function x = diff(x, order, dim)
%DIFF  Differences of an fmad object: diff(x), diff(x, k), diff(x, k, dim).
  if nargin < 2 || isempty(order)
    order = 1;
  end
  for k = 1:order
    sz = size(x.value);
    if nargin < 3
      step_dim = default_dim(sz);
    else
      step_dim = dim;
    end
    x.derivs = apply_along_dim(x.derivs, sz, step_dim, @(t) diff(t, 1, 1));
    x.value = diff(x.value, 1, step_dim);
  end
end
