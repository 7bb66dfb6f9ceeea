function y = sum(x, dim)
%SUM  Sum of the elements of an fmad object along a dimension.
  sz = size(x.value);
  if nargin < 2
    dim = default_dim(sz);
  end
  if dim > 1 && prod(sz(1:min(dim - 1, end))) > 1
    % Along a dimension with elements before it the .m rule reorders the
    % derivative rows; msad_apply sums them where they are (faster, the same
    % bits).
    [y, done] = on_engine('sum', x, dim);
    if done
      return
    end
  end
  y = x;
  y.value = sum(x.value, dim);
  y.derivs = apply_along_dim(x.derivs, sz, dim, @(t) sum(t, 1));
end
