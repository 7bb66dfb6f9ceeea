function z = binary_elementwise(a, b, op)
% Shared implementation of the elementwise binary operations: the value,
% the partial derivatives with respect to each active operand, and the chain
% rule with MATLAB's implicit expansion of the operands.
  [av, ad, a_active] = parts(a);
  [bv, bd, b_active] = parts(b);
  a_size = size(av);
  b_size = size(bv);
  if (issparse(av) || issparse(bv)) && numel(av) > 1 && numel(bv) > 1 ...
      && ~isequal(size(av), size(bv))
    % Octave does not broadcast sparse operands: expand them explicitly.
    sz = max(size(av), size(bv));
    av = broadcast_to(av, sz);
    bv = broadcast_to(bv, sz);
  end
  pa = [];
  pb = [];
  switch op
    case 'plus'
      zv = av + bv;
      pa = 1;
      pb = 1;
    case 'minus'
      zv = av - bv;
      pa = 1;
      pb = -1;
    case 'times'
      zv = av .* bv;
      if a_active, pa = bv; end
      if b_active, pb = av; end
    case 'rdivide'
      zv = av ./ bv;
      if a_active, pa = 1 ./ bv; end
      if b_active, pb = -zv ./ bv; end
    case 'power'
      zv = av .^ bv;
      if a_active, pa = power_base_partial(av, bv); end
      if b_active, pb = power_exponent_partial(zv, av, bv); end
    case 'atan2'
      zv = atan2(av, bv);
      r2 = av .^ 2 + bv .^ 2;
      pa = bv ./ r2;
      pb = -av ./ r2;
    case 'hypot'
      zv = hypot(av, bv);
      pa = av ./ zv;
      pb = bv ./ zv;
    otherwise
      error('fmad:internal', 'binary_elementwise: unknown operation %s', op);
  end
  zsize = size(zv);
  d = [];
  if a_active
    d = scale_rows(partial_for(pa, zsize), expand_rows(ad, a_size, zsize));
  end
  if b_active
    db = scale_rows(partial_for(pb, zsize), expand_rows(bd, b_size, zsize));
    if a_active
      if size(ad, 2) ~= size(bd, 2)
        error('fmad:badInput', 'fmad: operands have %d and %d directions', ...
              size(ad, 2), size(bd, 2));
      end
      d = d + db;
    else
      d = db;
    end
  end
  if a_active
    z = with_parts(a, zv, d);
  else
    z = with_parts(b, zv, d);
  end
end

function p = partial_for(p, zsize)
  % A scalar partial scales every row as it is; others expand to the result.
  if numel(p) ~= 1
    p = broadcast_to(p, zsize);
  end
end

function p = power_base_partial(av, bv)
  % d(a.^b)/da = b .* a.^(b-1); the common square avoids a pow call.
  if isequal(bv, 2)
    p = 2 * av;
  else
    p = bv .* av .^ (bv - 1);
  end
end

function p = power_exponent_partial(zv, av, bv)
  % d(a.^b)/db = a.^b .* log(a); where a == 0 and b > 0 the limit is 0
  % (log(0) would give NaN).
  p = zv .* log(av);
  if ~isa(p, 'fmad')
    zero_base = (av == 0) & (real(bv) > 0);
    p(zero_base) = 0;
  end
end
