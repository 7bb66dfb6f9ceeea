function x = ipermute(x, order)
%IPERMUTE  Inverse of permute(x, order) for an fmad object.
  inverse_order(order) = 1:numel(order);
  x = permute(x, inverse_order);
end
