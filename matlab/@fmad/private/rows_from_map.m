function d = rows_from_map(map, d_pos, d_neg, nd)
% Derivative rows laid out by MAP: entry k > 0 takes row k of D_POS, k < 0
% row -k of D_NEG, and 0 gives a zero row (fill created by growth or by a
% structural zero). D_NEG may be [] when MAP has no negative entry.
  map = map(:);
  % Store like the sources: fmad if either is, else sparse if either is.
  like = d_pos;
  if isa(d_neg, 'fmad') || (~isa(d_pos, 'fmad') && issparse(d_neg))
    like = d_neg;
  end
  d = zero_derivs(numel(map), nd, like);
  from_pos = map > 0;
  if any(from_pos)
    d = put(d, take(d_pos, map(from_pos), ':'), find(from_pos), ':');
  end
  from_neg = map < 0;
  if any(from_neg)
    d = put(d, take(d_neg, -map(from_neg), ':'), find(from_neg), ':');
  end
end
