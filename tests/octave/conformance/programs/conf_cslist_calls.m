function y = conf_cslist_calls(x)
% conformance: cslist scalar row col mat empty00 nd3
% Cs-lists c{...} spread into calls, indices and concatenation; x = c{:} takes the first value.
  c = num2cell(x);
  n = numel(c);
  joined = [c{:}];
  stacked = vertcat(c{:});
  wrapped = {c{:}};
  first = 0;
  if n > 0
    first = c{:};
  end
  pair = [c{1:min(2, n)}];
  sub = {1, ':'};
  picked = x(sub{:});
  dims = num2cell(size(x));
  grown = zeros(dims{:});
  h = @(varargin) numel(varargin);
  y = [joined(:); stacked(:); numel(wrapped); size(wrapped)'; first; pair(:); picked(:); size(grown)'; ...
       h(c{:}); count_inputs(c{:}, 7); max([c{end:-1:1}, -Inf]); numel({c{[]}}); numel([c{[]}])];
end

function n = count_inputs(varargin)
  n = nargin;
end
