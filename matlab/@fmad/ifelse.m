function z = ifelse(mask, tval, fval)
%IFELSE  As merge.
  z = merge(mask, tval, fval);
end
