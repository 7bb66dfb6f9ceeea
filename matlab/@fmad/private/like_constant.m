function z = like_constant(builder, args)
% builder(dims..., 'like', X) for an fmad X: the constant array with zero
% derivatives, nested and stored like X.
  x = args{end};
  if ~(numel(args) >= 2 && ischar(args{end-1}) && strcmpi(args{end-1}, 'like') ...
       && isa(x, 'fmad'))
    error('fmad:badInput', 'fmad: use %s(..., ''like'', x) with an fmad x', func2str(builder));
  end
  dims = args(1:end-2);
  if isa(x.value, 'fmad')
    value = builder(dims{:}, 'like', x.value);
  else
    value = builder(dims{:});
  end
  z = with_parts(x, value, zero_derivs(numel(value), size(x.derivs, 2), x.derivs));
end
