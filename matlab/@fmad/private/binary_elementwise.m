function z = binary_elementwise(a, b, op)
% Shared implementation of the elementwise binary operations: the value,
% the partial derivatives with respect to each active operand, and the chain
% rule with MATLAB's implicit expansion of the operands. This is the hot
% path of every fmad computation, hence the few builtin calls on the common
% path (Octave spends microseconds on each).
  a_active = isa(a, 'fmad');
  b_active = isa(b, 'fmad');
  if a_active
    av = a.value;
  else
    av = a;
  end
  if b_active
    bv = b.value;
  else
    bv = b;
  end
  pa = [];                           % [] = +1, for the linear operations
  pb = [];
  try
    switch op
      case 'plus'
        zv = av + bv;
      case 'minus'
        zv = av - bv;
        pb = -1;
      case 'times'
        zv = av .* bv;
        pa = bv;
        pb = av;
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
  catch err
    if ~(issparse(av) || issparse(bv))
      rethrow(err);
    end
    % Octave does not broadcast sparse operands: expand them explicitly.
    sz = max(size(av), size(bv));
    z = binary_elementwise(broadcast_to(a, sz), broadcast_to(b, sz), op);
    return
  end
  m = numel(zv);
  if a_active
    d = a.derivs;
    if ~isempty(pa) || size(d, 1) ~= m
      d = tangent(pa, d, av, zv, m);
    end
    if b_active
      db = b.derivs;
      if ~isempty(pb) || size(db, 1) ~= m
        db = tangent(pb, db, bv, zv, m);
      end
      try
        d = d + db;
      catch
        error('fmad:badInput', 'fmad: operands have %d and %d directions', ...
              size(d, 2), size(db, 2));
      end
    end
    z = a;
  else
    d = tangent(pb, b.derivs, bv, zv, m);
    z = b;
  end
  z.value = zv;
  z.derivs = d;
end

function d = tangent(partial, d, operand, zv, m)
  % partial .* (operand derivatives expanded to the result's elements);
  % broadcasting only grows arrays, so equal counts mean equal sizes.
  if size(d, 1) ~= m
    d = expand_rows(d, size(operand), size(zv));
  end
  if isempty(partial)
    return
  end
  if numel(partial) ~= m && numel(partial) ~= 1
    partial = broadcast_to(partial, size(zv));
  end
  d = scale_rows(partial, d);
end

function p = power_base_partial(av, bv)
  % d(a.^b)/da = b .* a.^(b-1); the common square avoids a pow call.
  if numel(bv) == 1 && bv == 2
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
