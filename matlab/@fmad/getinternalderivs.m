function d = getinternalderivs(x)
%GETINTERNALDERIVS  Derivatives of an fmad object in internal 2-D form.
%   D = GETINTERNALDERIVS(X) is the numel(X) x nd matrix whose column k holds
%   the k-th directional derivative of X(:). Sparse derivatives stay sparse.
%   With X = fmad(x0, speye(n)) upstream, D is the Jacobian dX/dx0.
%
%   See also fmad, getderivs, getvalue, MADuncompressJac.
  d = x.derivs;
end
