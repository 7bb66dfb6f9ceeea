function f = reactor_network(x, varargin)
% REACTOR_NETWORK  Rates of a three-reaction network (Robertson's rate constants), written the way
%   models grow: a parameter struct, a cell array of rate-law kinds, optional arguments through
%   varargin/nargin, a while loop with a switch, a result array grown with end+1, and a sparse
%   stoichiometry product. f = reactor_network(x) or reactor_network(x, scale).
  if nargin < 2
    scale = 1;
  else
    scale = varargin{1};
  end
  p.k = [0.04, 3e7, 1e4] * scale;
  p.law = {'first', 'second', 'mixed'};
  state.y = x(:);
  rates = [];
  i = 1;
  while i <= numel(p.law)
    switch p.law{i}
      case 'first'
        r = p.k(1) * state.y(1);
      case {'second', 'square'}
        r = p.k(2) * state.y(2)^2;
      otherwise
        r = p.k(3) * state.y(2) * state.y(3);
    end
    rates(end + 1) = r;
    i = i + 1;
  end
  stoichiometry = sparse([1 1 2 2 2 3], [1 3 1 2 3 2], [-1 1 1 -1 -1 1]);
  f = stoichiometry * rates(:);
end
