function z = concatenate(dim, args)
% cat(DIM, ARGS{:}) with fmad and constant arguments.
  args = args(~cellfun(@(a) isa(a, 'double') && isequal(size(a), [0 0]), args));
  template = args{find(cellfun(@(a) isa(a, 'fmad'), args), 1)};
  nd = size(template.derivs, 2);
  values = cell(size(args));
  derivs = cell(size(args));
  contiguous = true;                  % each argument a block of rows?
  for i = 1:numel(args)
    [values{i}, derivs{i}, active] = parts(args{i});
    if ~active
      derivs{i} = zero_derivs(numel(values{i}), nd, template.derivs);
    elseif size(derivs{i}, 2) ~= nd
      error('fmad:badInput', 'fmad: concatenating objects with %d and %d directions', ...
            nd, size(derivs{i}, 2));
    end
    sz = size(values{i});
    contiguous = contiguous && prod(sz(dim+1:end)) == 1;
  end
  zv = cat(dim, values{:});
  d = vertcat(derivs{:});
  if ~contiguous
    positions = cell(size(args));
    offset = 0;
    for i = 1:numel(args)
      count = numel(values{i});
      positions{i} = reshape(offset + (1:count), size(values{i}));
      offset = offset + count;
    end
    map = cat(dim, positions{:});
    d = take(d, map(:), ':');
  end
  z = with_parts(template, zv, d);
end
