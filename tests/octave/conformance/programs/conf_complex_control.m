function y = conf_complex_control(x)
% conformance: complex scalar negscalar row mat special
% Complex values as conditions (if, while, switch, short-circuit operators), in find with three outputs and
% as colon bounds (real parts, with Octave's warning).
  z = x(:) * 1i + round(x(:));
  count = 0;
  if z, count = count + 1; end
  if 0i, count = count + 10; end
  if z(1) && 1i, count = count + 100; end
  k = 0;
  while k * 1i - 3i
    k = k + 1;
  end
  switch z(1)
    case {1i, round(x(1)) + x(1) * 1i}
      hit = 1;
    otherwise
      hit = 2;
  end
  [r, c, v] = find([z; 0; 2i]);
  warning('off', 'Octave:colon-complex-argument');
  range = 1:(numel(z) + 1i);
  y = [count; k; hit; r; c; v; range(:); nnz(z); any(z); all(z)];
end
