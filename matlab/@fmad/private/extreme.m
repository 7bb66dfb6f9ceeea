function [z, index] = extreme(pick, args)
% Shared max/min: PICK is @max or @min and ARGS the arguments of the call:
% (x), (x, [], dim) reduce along a dimension; (a, b) is elementwise, through
% msad_apply where it applies (faster, the same bits). The result carries the
% value and derivatives of the selected element.
  if numel(args) == 2 || (numel(args) == 3 && ~isempty(args{2}))
    if numel(args) == 3
      error('fmad:badInput', 'fmad: max/min(a, b, dim) is not defined');
    end
    index = [];
    [z, done] = on_engine(func2str(pick), args{:});
    if ~done
      z = elementwise_extreme(pick, args{1}, args{2});
    end
    return
  end
  x = args{1};
  sz = size(x);
  if numel(args) == 3
    dim = args{3};
  else
    dim = default_dim(sz);
  end
  [~, index] = pick(base_value(x), [], dim);
  z = reshape(take(x, slice_rows(sz, dim, index)), size(index));
end

function z = elementwise_extreme(pick, a, b)
  av = base_value(a);
  bv = base_value(b);
  % The builtin's choice, including its NaN rule (a NaN loses; of two NaNs,
  % a's derivatives, as msad_eval's rule); put also makes the result an fmad
  % object when a is a constant.
  take_b = pick(av, bv) ~= av & ~(isnan(av) & isnan(bv));
  sz = size(take_b);
  z = put(broadcast_to(a, sz), take(broadcast_to(b, sz), take_b), take_b);
end
