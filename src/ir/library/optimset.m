function options = optimset(varargin)
% OPTIMSET  Octave's optimset, written for msad: optimset() (every option Octave's solvers know, each
%   empty), optimset('Name', value, ...), optimset(old, 'Name', value, ...) and optimset(old, new).
%   Names are matched as Octave matches them (see __optim_name__) and stored under their canonical
%   spelling; old's fields are kept in their order, new ones added after them.
  if nargin == 0
    options = struct();
    names = __optim_name__();
    for k = 1:numel(names)
      options = setfield(options, names{k}, []);
    end
    return;
  end
  options = struct();
  pairs = varargin;
  if isstruct(varargin{1})
    options = varargin{1};
    pairs = varargin(2:end);
    if numel(pairs) == 1 && isstruct(pairs{1})
      pairs = struct_pairs(pairs{1});
    end
  elseif nargin == 1
    error('msad:unsupported', 'optimset: msad has no defaults of a solver by name; pass the options as name/value pairs');
  end
  if mod(numel(pairs), 2) ~= 0
    error('Octave:invalid-fun-call', 'Invalid call to optimset');
  end
  for k = 1:2:numel(pairs)
    options = setfield(options, __optim_name__(pairs{k}, 'optimset'), pairs{k + 1});
  end
end

function pairs = struct_pairs(new)
  % The fields of a struct of options as name/value pairs.
  names = fieldnames(new);
  pairs = cell(1, 2 * numel(names));
  for k = 1:numel(names)
    pairs{2 * k - 1} = names{k};
    pairs{2 * k} = getfield(new, names{k});
  end
end
