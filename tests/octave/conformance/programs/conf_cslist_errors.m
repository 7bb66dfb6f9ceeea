function y = conf_cslist_errors(x)
% conformance: cslist scalar row
% Octave's errors for cs-lists of the wrong length, as messages.
  c = num2cell(x);
  y = [check(@() take_none(c)), '|', check(@() too_many(c)), '|', check(@() deal_mismatch()), '|', ...
       check(@() short_varargout())];
end

function v = take_none(c)
  v = c{[]};
end

function v = too_many(c)
  [a, b, v] = c{[1 1]};
end

function v = deal_mismatch()
  s = struct('f', {1, 2, 3});
  [s.f] = deal(7, 8);
  v = 1;
end

function v = short_varargout()
  [a, v] = only_one();
end

function varargout = only_one()
  varargout = {1};
end

function m = check(f)
  try
    f();
    m = 'no error';
  catch err
    m = err.message;
  end
end
