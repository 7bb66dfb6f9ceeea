function d = zero_derivs(m, nd, like)
% An m x nd zero derivative matrix stored like LIKE (full, sparse or fmad).
  if isa(like, 'fmad')
    d = zeros(m, nd, 'like', like);
  elseif issparse(like)
    d = sparse(m, nd);
  else
    d = zeros(m, nd);
  end
end
