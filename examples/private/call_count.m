function n = call_count(name, increment)
% CALL_COUNT  Named call counters shared by the examples' wrappers.
%   call_count()              resets every counter
%   call_count(name, 1)       adds one to counter name
%   n = call_count(name)      its value (0 if never counted)
  persistent counts;
  if nargin == 0 || isempty(counts)
    counts = struct();
  end
  if nargin == 0
    n = 0;
    return;
  end
  if ~isfield(counts, name)
    counts.(name) = 0;
  end
  if nargin > 1
    counts.(name) = counts.(name) + increment;
  end
  n = counts.(name);
end
