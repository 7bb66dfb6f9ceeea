function z = merge(mask, tval, fval)
%MERGE  merge(mask, tval, fval) with fmad values: TVAL where the value of
%   MASK is true, else FVAL; a scalar MASK picks a whole operand.
  mask = logical(base_value(mask));
  if numel(mask) == 1
    if mask
      z = tval;
    else
      z = fval;
    end
    return
  end
  sz = size(mask);
  z = put(broadcast_to(fval, sz), take(broadcast_to(tval, sz), mask), mask);
end
