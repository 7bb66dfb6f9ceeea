function d = getderivs(x)
%GETDERIVS  Derivatives of an fmad object in external form.
%   D = GETDERIVS(X) is a full array of size [size(X) nd]: D(:,...,:,k) is
%   the k-th directional derivative of X (for one direction, size(X)).
%
%   See also fmad, getinternalderivs, getvalue.
  d = reshape(full(x.derivs), [size(x.value) size(x.derivs, 2)]);
end
