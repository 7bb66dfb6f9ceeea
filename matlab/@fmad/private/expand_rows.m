function d = expand_rows(d, from_size, to_size)
% Derivative rows of an operand of size FROM_SIZE broadcast to the larger
% size TO_SIZE.
  if prod(from_size) == 1
    d = take(d, ones(prod(to_size), 1), ':');
    return
  end
  [from_size, to_size] = same_length(from_size, to_size);
  map = repmat(reshape(1:prod(from_size), from_size), to_size ./ from_size);
  d = take(d, map(:), ':');
end

function [a, b] = same_length(a, b)
  n = max(numel(a), numel(b));
  a(end+1:n) = 1;
  b(end+1:n) = 1;
end
