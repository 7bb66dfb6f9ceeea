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
        if b_active, pb = power_exponent_partial(zv, av); end
      case 'atan2'
        zv = atan2(av, bv);
        r2 = av .^ 2 + bv .^ 2;
        pa = bv ./ r2;
        pb = -av ./ r2;
      case 'hypot'
        zv = hypot(av, bv);
        pa = av ./ zv;
        pb = bv ./ zv;
      case 'mod'
        zv = mod(av, bv);
        if b_active, pb = -whole_quotient(@floor, av, bv); end
      case 'rem'
        zv = rem(av, bv);
        if b_active, pb = -whole_quotient(@fix, av, bv); end
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

function q = whole_quotient(round_to_integer, av, bv)
  % The integer quotient q in mod and rem (a - q .* b): piecewise constant.
  % Where b == 0, mod(a, 0) = a, so b does not enter.
  q = round_to_integer(base_value(av) ./ base_value(bv));
  q(~isfinite(q)) = 0;
end

function p = power_base_partial(av, bv)
  % d(a.^b)/da = b .* a.^(b-1). Where b == 0, a.^0 is the constant 1 (also
  % 0^0 in Octave): the partial is 0 * a.^0 = 0, not 0 * 0^-1 = NaN. The
  % common constant square avoids a pow call; an active (fmad) exponent
  % always takes the general formula, which keeps its derivatives.
  if numel(bv) == 1 && ~isa(bv, 'fmad') && bv == 2
    p = 2 * av;
  else
    p = bv .* av .^ (bv - (bv ~= 0));
  end
end

function p = power_exponent_partial(zv, av)
  % d(a.^b)/db = a.^b .* log(a). Where a == 0, 0.^b is piecewise constant in
  % b (0 for b > 0, Inf for b < 0, 1 at b = 0): its derivative is taken as 0,
  % as msad_eval does, instead of the NaN or -Inf of log(0).
  p = zv .* log(av);
  zero_base = (base_value(av) == 0) & true(size(base_value(zv)));
  if any(zero_base(:))
    p = put(p, 0, zero_base);
  end
end
