function r = conf_try_messages(x)
% conformance: program scalar row mat
% The identifiers and messages of Octave's own errors, caught: index out of bound (linear, 2-D, N-D,
% named and unnamed), invalid subscripts, nonconformant operands, a variable not set on this path.
  r = '';
  c = {1, 2};
  s.a = x;
  n = numel(x);
  for k = 1:12
    try
      switch k
        case 1, y = x(n + 1);
        case 2, y = x(1, n + 3);
        case 3, y = x(n + 1, 1);
        case 4, y = x(1, 1, 2);
        case 5, y = x(0);
        case 6, y = x(1.5);
        case 7, y = c{3};
        case 8, y = s.a(n + 2);
        case 9, y = x + ones(n + 1, n + 2);
        case 10, y = ones(2, 3) * ones(2, 3);
        case 11, y = [x; ones(1, n + 1)];
        case 12
          if n < 0, q = 1; end
          y = q + 1;
      end
      r = [r 'ok;'];
    catch err
      r = [r err.identifier ' ' err.message ';'];
    end
  end
end
