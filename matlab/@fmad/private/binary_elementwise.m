function z = binary_elementwise(a, b, op)
% Shared implementation of the elementwise binary operations: the value,
% the partial derivatives with respect to each active operand, and the chain
% rule with MATLAB's implicit expansion of the operands. (Hot path: operands
% are unpacked inline and sizes compared through numel, since broadcasting
% only grows arrays.)
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
  a_size = size(av);
  b_size = size(bv);
  if issparse(av) || issparse(bv)
    % Octave does not broadcast sparse operands: expand them explicitly.
    [av, bv] = expand_sparse_operands(av, bv);
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
  m = numel(zv);
  if a_active
    d = tangent(pa, a.derivs, a_size, zv, m);
    if b_active
      if size(a.derivs, 2) ~= size(b.derivs, 2)
        error('fmad:badInput', 'fmad: operands have %d and %d directions', ...
              size(a.derivs, 2), size(b.derivs, 2));
      end
      d = d + tangent(pb, b.derivs, b_size, zv, m);
    end
    z = a;
  else
    d = tangent(pb, b.derivs, b_size, zv, m);
    z = b;
  end
  z.value = zv;
  z.derivs = d;
end

function d = tangent(partial, d, operand_size, zv, m)
  % partial .* (operand derivatives expanded to the result's elements)
  if size(d, 1) ~= m
    d = expand_rows(d, operand_size, size(zv));
  end
  if numel(partial) ~= 1 && numel(partial) ~= m
    partial = broadcast_to(partial, size(zv));
  end
  d = scale_rows(partial, d);
end

function [av, bv] = expand_sparse_operands(av, bv)
  if numel(av) > 1 && numel(bv) > 1 && ~isequal(size(av), size(bv))
    sz = max(size(av), size(bv));
    av = broadcast_to(av, sz);
    bv = broadcast_to(bv, sz);
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
