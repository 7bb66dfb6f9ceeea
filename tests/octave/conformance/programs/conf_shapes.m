function y = conf_shapes(x)
% conformance: program scalar row col mat square nd3
% Rearrangements composed: repmat, permute, flips, circshift, cat.
  a = repmat(x, 2, 1);
  b = permute(a, [2 1 3]);
  c = circshift(fliplr(b), 1);
  d = cat(3, c, rot90(c, 2));
  y = squeeze(sum(d, 1));
end
