function y = conf_structarr_assign(x)
% conformance: cslist scalar row col mat
% Assignments into struct array elements and structs in cells, and Octave's errors (their text as
% character codes) for s.f = v on a struct array and cs-lists where one value is needed.
  a = x(1);
  b = x(end);
  s = struct('f', {a, 2}, 'g', {1, b});
  s(2).f = a * b;
  s(1).f(3) = sin(b);
  s(end+1).h = 3 * a;
  s(4) = struct('g', b, 'h', 2, 'f', -a);
  s(2) = [];
  c = {};
  c{2}.f = a + b;
  c{2}.f(2) = 7;
  t.g = {a};
  t.g{3} = b;
  y = [s(1).f, s(2).h, s(3).g, numel(s), isempty(s(2).f), c{2}.f, numel(t.g), t.g{3}];
  y = [y, message_of(@() dot_assign(s)), message_of(@() plus_one({a, b})), message_of(@() negated({a, b}))];
  y = [y, message_of(@() mismatched(s)), message_of(@() indexed({a, b})), message_of(@() plus_complex({a, b}))];
end

function codes = message_of(f)
  codes = [];
  try
    f();
  catch err
    codes = double(err.message);
  end
end

function s = dot_assign(s)
  s.f = 1;
end

function y = plus_one(c)
  y = c{:} + 1;
end

function y = plus_complex(c)
  y = [1i, 2] + c{:};
end

function y = negated(c)
  y = -c{:};
end

function s = mismatched(s)
  s(1) = struct('k', 1);
end

function y = indexed(c)
  y = c{:}(1);
end
