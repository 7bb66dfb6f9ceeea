function value = optimget(options, name, default)
% OPTIMGET  Octave's optimget, written for msad: the option's value in the struct options (its name
%   matched as optimset matches it), else default, else [].
  if nargin < 2 || ~isstruct(options) || ~ischar(name)
    error('Octave:invalid-fun-call', 'Invalid call to optimget');
  end
  name = __optim_name__(name, 'optimget');
  if isfield(options, name) && ~isempty(getfield(options, name))
    value = getfield(options, name);
  elseif nargin > 2
    value = default;
  else
    value = [];
  end
end
