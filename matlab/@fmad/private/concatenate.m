function z = concatenate(dim, args)
% cat(DIM, ARGS{:}) with fmad and constant arguments (0x0 arguments are
% skipped, as the builtin does).
  count = numel(args);
  values = cell(1, count);
  derivs = cell(1, count);
  used = true(1, count);
  template = [];
  for i = 1:count
    a = args{i};
    if isa(a, 'fmad')
      values{i} = a.value;
      derivs{i} = a.derivs;
      if isempty(template)
        template = a;
      end
    else
      values{i} = a;
      used(i) = size(a, 1) > 0 || size(a, 2) > 0 || ndims(a) > 2;
    end
  end
  values = values(used);
  derivs = derivs(used);
  nd = size(template.derivs, 2);
  contiguous = true;                  % is each argument one block of rows?
  for i = 1:numel(values)
    if isempty(derivs{i})
      derivs{i} = zero_derivs(numel(values{i}), nd, template.derivs);
    elseif size(derivs{i}, 2) ~= nd
      error('fmad:badInput', 'fmad: concatenating objects with %d and %d directions', ...
            nd, size(derivs{i}, 2));
    end
    sz = size(values{i});
    contiguous = contiguous && prod(sz(dim+1:end)) == 1;
  end
  z = template;
  z.value = cat(dim, values{:});
  z.derivs = vertcat(derivs{:});
  if ~contiguous
    positions = cell(size(values));
    offset = 0;
    for i = 1:numel(values)
      n = numel(values{i});
      positions{i} = reshape(offset + (1:n), size(values{i}));
      offset = offset + n;
    end
    map = cat(dim, positions{:});
    z.derivs = take(z.derivs, map(:), ':');
  end
end
