function r = colon(base, increment, limit)
%COLON  base:limit and base:increment:limit with fmad scalars: the elements
%   base + k * increment (k = 0, 1, ...) carry the derivatives of base and
%   increment. The limit only decides the count, a constant, so with
%   constant base and increment the range is a plain double one.
  if nargin == 2
    limit = increment;
    increment = 1;
  end
  range = base_value(base):base_value(increment):base_value(limit);
  if isempty(range) || ~(isa(base, 'fmad') || isa(increment, 'fmad'))
    r = range;
  else
    % Octave uses the first element of an array operand (with a warning).
    r = take(base, 1) + take(increment, 1) .* (0:numel(range) - 1);
  end
end
