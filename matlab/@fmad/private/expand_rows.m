function d = expand_rows(d, from_size, to_size)
% Derivative rows of an operand of size FROM_SIZE broadcast to the larger
% size TO_SIZE.
  if prod(from_size) == 1
    d = take(d, ones(prod(to_size), 1), ':');
  else
    map = broadcast_to(reshape(1:prod(from_size), from_size), to_size);
    d = take(d, map(:), ':');
  end
end
