function z = concatenate(dim, args)
% cat(DIM, ARGS{:}) with fmad and constant arguments.
  count = numel(args);
  values = args;
  derivs = cell(1, count);
  template = 0;
  for i = 1:count
    if isa(args{i}, 'fmad')
      values{i} = args{i}.value;
      derivs{i} = args{i}.derivs;
      if template == 0
        template = i;
      end
    end
  end
  z = args{template};
  nd = size(z.derivs, 2);
  for i = 1:count
    if isempty(derivs{i})            % a constant (or empty) argument
      derivs{i} = zero_derivs(numel(values{i}), nd, z.derivs);
    elseif size(derivs{i}, 2) ~= nd
      error('fmad:badInput', 'fmad: concatenating objects with %d and %d directions', ...
            nd, size(derivs{i}, 2));
    end
  end
  z.value = cat(dim, values{:});
  z.derivs = vertcat(derivs{:});
  % Each argument is one block of rows unless the result extends beyond
  % dimension DIM (e.g. stacking rows): then interleave by an index map.
  sz = size(z.value);
  if any(sz(dim+1:end) > 1)
    positions = cell(1, count);
    offset = 0;
    for i = 1:count
      n = numel(values{i});
      positions{i} = reshape(offset + (1:n), size(values{i}));
      offset = offset + n;
    end
    map = cat(dim, positions{:});
    z.derivs = take(z.derivs, map(:), ':');
  end
end
