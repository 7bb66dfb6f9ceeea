function d = rows_from_map(map, d_pos, d_neg, nd)
% Derivative rows laid out by MAP: entry k > 0 takes row k of D_POS, k < 0
% row -k of D_NEG, and 0 gives a zero row (fill created by growth or by a
% structural zero). D_NEG may be [] when MAP has no negative entry.
  map = map(:);
  like = d_pos;
  if isempty(like) || (~issparse(like) && issparse(d_neg)) || isa(d_neg, 'fmad')
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
